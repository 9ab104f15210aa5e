import { multipart } from '../../src/adapters/kyc/sumsub.ts';
import type { TestApp } from './app.ts';
import { type BarongSession, nextIp, signedInUser } from './identity.ts';
import { PDF } from './kyc.ts';

/** A company of a business account that passes every check (business-accounts and business-kyb tests). */
export const COMPANY = {
  name: 'Sakura Trading GmbH',
  registration_number: 'HRB 123456',
  country: 'DEU',
  address: 'Unter den Linden 1, 10117 Berlin',
  representatives: [
    { name: 'Priya Sharma', role: 'director', ownership: null },
    { name: 'Kenji Sato', role: 'ubo', ownership: '60' },
    { name: 'Anna Berg', role: 'shareholder', ownership: '25' },
  ],
};

/** A date `days` before today (UTC), as YYYY-MM-DD. */
export const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/** The business account tests' helpers, against the app `ctx` gives. */
export function businessHarness(ctx: () => { t: TestApp }) {
  /** A signed-in user, personal or business, with its uid and id. */
  async function user(email: string, accountType?: 'business' | 'personal') {
    const { t } = ctx();
    const { session, ...rest } = await signedInUser(
      t,
      email,
      accountType ? { account_type: accountType } : {},
    );
    const row = (await t.db.pool.query('select uid, id from users where email = $1', [email])).rows[0];
    return { ...rest, session, uid: row.uid as string, id: String(row.id) };
  }

  /** `POST /resource/company/documents` with a register extract issued on `issuedOn`. */
  function uploadExtract(
    session: BarongSession | undefined,
    issuedOn: string | undefined,
    file: Buffer = PDF,
  ) {
    const form = multipart([
      { name: 'doc_type', value: 'register_extract' },
      ...(issuedOn !== undefined ? [{ name: 'issued_on', value: issuedOn }] : []),
      { name: 'file', fileName: 'extract.pdf', contentType: 'application/pdf', value: file },
    ]);
    return ctx().t.app.inject({
      method: 'POST',
      url: '/api/v2/barong/resource/company/documents',
      headers: {
        ...(session ? { cookie: session.cookie, 'x-csrf-token': session.csrf } : {}),
        'content-type': form.contentType,
      },
      payload: form.body,
      remoteAddress: nextIp(),
    });
  }

  /** The review state of a user's company (undefined: none). */
  const companyState = async (userId: string) =>
    (await ctx().t.db.pool.query('select review_state from companies where user_id = $1', [userId])).rows[0]
      ?.review_state;

  return { user, uploadExtract, companyState };
}
