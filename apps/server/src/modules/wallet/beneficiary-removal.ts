import { API, WALLET_ERRORS } from '@exchange/shared';
import { SECRET, withSecret } from '../../adapters/mail/port.ts';
import type { Clock } from '../../clock.ts';
import { withTransaction } from '../../db/pool.ts';
import { invalid } from '../../http/errors.ts';
import { windowLimiter } from '../identity/limiter.ts';
import { MAILED_TOKEN_MINUTES, mailedToken, mailedTokenSubject } from '../identity/mailed-token.ts';
import { phishingLine } from '../identity/notify.ts';
import type { RequestOrigin } from '../identity/registration.ts';
import type { UserRecord } from '../identity/users-repository.ts';
import { type BeneficiaryDeps, findBeneficiary, recordBeneficiaryActivity } from './beneficiaries.ts';
import { beneficiaryForRemoval, deleteBeneficiaryById } from './beneficiaries-repository.ts';

/**
 * BASEAPP_COMPAT's beneficiary removal: BaseApp 2.6 deletes a saved address without a code, where the spec asks
 * for an authenticator code. Here such a delete mails the owner a link, and the address goes only when the link
 * is followed: whoever holds the session alone cannot remove it, but the owner's mailbox now stands where the
 * authenticator stood (SECURITY.md).
 */

/** The path of the removal link, under the Peatio API: it works whatever web client is served at PUBLIC_URL. */
export const REMOVAL_PATH = '/public/beneficiaries/removal';

/** A removal link is mailed at most once a minute per address. */
const RESEND_SECONDS = 60;

/** What the owner of a removal link is shown before confirming. */
export interface RemovalSubject {
  id: number;
  name: string;
  currency: string;
  blockchain_key: string;
  address: string;
}

/**
 * Mails the owner the link that removes the beneficiary `id` (another user's or an unknown one: 404, as every
 * beneficiary route). Until the link is followed the address stays as it is and may still be used. At most one
 * mail a minute per address; a quicker request is answered the same, unsent.
 */
export async function requestRemoval(
  deps: BeneficiaryDeps & { config: { split?: boolean; publicUrl: string }; clock: Clock },
  user: UserRecord,
  id: number,
): Promise<void> {
  const row = await findBeneficiary(deps.db, user.id, id);
  const limiter = windowLimiter(deps, 'beneficiary-removal', 1, RESEND_SECONDS * 1000);
  if (!(await limiter.take(`${user.uid}:${row.id}`))) return;
  const token = mailedToken(deps.keys, 'beneficiary_removal', String(row.id), deps.clock.now());
  await deps.mail.send({
    to: user.email,
    template: 'beneficiary_removal',
    subject: 'Confirm removing a withdrawal address',
    text:
      withSecret`Someone signed in to your account asked to remove the withdrawal address "${row.name}" ` +
      withSecret`(${row.currency_id.toUpperCase()}, ${row.blockchain_key}):\n${row.address}\n\n` +
      withSecret`To remove it, open this link within ${MAILED_TOKEN_MINUTES.beneficiary_removal} minutes and confirm:\n\n` +
      withSecret`${deps.config.publicUrl}${API.peatio}${REMOVAL_PATH}?token=${SECRET}\n\n` +
      'If it was not you, ignore this email (the address stays), change your password and contact support.' +
      phishingLine(user.anti_phishing_phrase),
    secret: token,
  });
}

/** The beneficiary a removal token names, or 422 `account.beneficiary.invalid_removal_token`. */
export async function removalSubject(deps: BeneficiaryDeps, token: string): Promise<RemovalSubject> {
  const id = mailedTokenSubject(deps.keys, 'beneficiary_removal', token, deps.clock.now());
  const row = id ? await beneficiaryForRemoval(deps.db, id) : undefined;
  if (!row) throw invalid(WALLET_ERRORS.beneficiaryRemovalTokenInvalid);
  return {
    id: Number(row.id),
    name: row.name,
    currency: row.currency_id,
    blockchain_key: row.blockchain_key,
    address: row.address,
  };
}

/**
 * Removes the beneficiary a valid token names (once: a second use finds it gone and is refused), with its entry in
 * the owner's security log in the same transaction.
 */
export async function confirmRemoval(
  deps: BeneficiaryDeps,
  token: string,
  origin: RequestOrigin,
): Promise<RemovalSubject> {
  const subject = await removalSubject(deps, token);
  await withTransaction(deps.db, async (tx) => {
    const owner = await deleteBeneficiaryById(tx, subject.id);
    if (owner === undefined) throw invalid(WALLET_ERRORS.beneficiaryRemovalTokenInvalid);
    await recordBeneficiaryActivity(
      tx,
      String(owner),
      'beneficiary.delete',
      { ...subject, id: String(subject.id), currency_id: subject.currency },
      origin,
    );
  });
  return subject;
}
