import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../src/core/audit.ts';
import { signature } from '../../src/modules/api-keys/hmac.ts';
import { adminRoutes } from '../support/admin-routes.ts';
import { apiKeyFor } from '../support/api-key.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { sessionFor } from '../support/core.ts';
import { kycHarness, PROFILE } from '../support/kyc.ts';
import {
  adminCall,
  type Person,
  person as personOf,
  stepUp as stepUpOf,
  totpCode,
} from '../support/staff.ts';

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());
const kyc = kycHarness(() => ({ t, base }));

type Headers = Record<string, string>;
const person = (email: string, role: string, otp = true) => personOf(t, email, role, otp);
const code = totpCode;
const call = (method: string, url: string, headers: Headers = {}, payload?: unknown) =>
  adminCall(t, method, url, headers, payload);
const stepUp = (p: Person) => stepUpOf(t, p);

let customer: Person;
let staff: Record<
  'support' | 'compliance' | 'accountant' | 'accountant2' | 'technical' | 'superadmin',
  Person
>;

beforeAll(async () => {
  customer = await person('customer@example.com', 'member');
  staff = {
    support: await person('support@example.com', 'support'),
    compliance: await person('compliance@example.com', 'compliance'),
    accountant: await person('accountant@example.com', 'accountant'),
    accountant2: await person('accountant2@example.com', 'accountant'),
    technical: await person('technical@example.com', 'technical'),
    superadmin: await person('root@example.com', 'superadmin'),
  };
  await t.deps.core.sequencer.submit({
    type: 'Credit',
    user: customer.id,
    currency: 'usdt',
    amount: 100_000_000n,
    kind: 'deposit',
  });
});

const ROUTES = () => adminRoutes(customer.uid);

describe('the admin API', () => {
  it('lists every admin route here: the test covers what the server registers', async () => {
    const doc = (await t.app.inject('/api/v2/admin/swagger')).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const registered = Object.entries(doc.paths)
      .flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`))
      .filter((r) => !r.endsWith('/swagger') && !r.endsWith(' /me') && !r.endsWith(' /step_up'));
    const covered = ROUTES().map((r) => `${r.method} ${r.path ?? r.url.split('?')[0]}`);
    expect(new Set(covered)).toEqual(new Set(registered));
  });

  it('refuses visitors, customers, other roles, staff without 2FA and staff without a fresh code', async () => {
    const noTwoFactor = await person('support-no2fa@example.com', 'support', false);
    for (const route of ROUTES()) {
      const send = (headers: Headers) => call(route.method, route.url, headers, route.body);
      expect((await send({})).statusCode, `${route.url} visitor`).toBe(401);
      const asCustomer = await send(customer.headers);
      expect([asCustomer.statusCode, asCustomer.json()], `${route.url} customer`).toEqual([
        403,
        { errors: ['admin.forbidden'] },
      ]);
      for (const [role, who] of Object.entries(staff)) {
        if (role === 'superadmin' || route.allowed.includes(role.replace(/2$/, ''))) continue;
        const res = await send(who.headers);
        expect([res.statusCode, res.json()], `${route.url} ${role}`).toEqual([
          403,
          { errors: ['admin.forbidden'] },
        ]);
      }
      const allowed = staff[route.allowed[0] as keyof typeof staff];
      const res = await send(allowed.headers);
      expect([res.statusCode, res.json()], `${route.url} without step-up`).toEqual([
        403,
        { errors: ['admin.step_up_required'] },
      ]);
      if (route.allowed.includes('support')) {
        const off = await send(noTwoFactor.headers);
        expect([off.statusCode, off.json()], `${route.url} 2FA off`).toEqual([
          403,
          { errors: ['admin.2fa_required'] },
        ]);
      }
    }
    // A program signing with a superadmin's API key is not the console: the admin API takes sessions only.
    const { kid, secret } = await apiKeyFor(t.db.pool, 'root@example.com');
    const nonce = String(Date.now());
    const signed = await call('GET', '/users', {
      'x-auth-apikey': kid,
      'x-auth-nonce': nonce,
      'x-auth-signature': signature(secret, nonce, kid),
    });
    expect([signed.statusCode, signed.json()]).toEqual([401, { errors: ['authz.invalid_session'] }]);
    // Even the console's own description of the user is for staff only.
    const me = await call('GET', '/me', customer.headers);
    expect(me.statusCode).toBe(403);
  });

  it('steps up with a fresh authenticator code only, once per code', async () => {
    const who = staff.support;
    expect((await call('POST', '/step_up', who.headers, { otp_code: '000000' })).json()).toEqual({
      errors: ['admin.step_up.invalid_code'],
    });
    const fresh = code(who, t.clock.offset);
    const ok = await call('POST', '/step_up', who.headers, { otp_code: fresh });
    expect(ok.statusCode).toBe(200);
    const until = new Date(ok.json().step_up_until).getTime();
    expect(until).toBeGreaterThan(t.clock.now() + 4 * 60_000);
    expect((await call('POST', '/step_up', who.headers, { otp_code: fresh })).json()).toEqual({
      errors: ['admin.step_up.code_used'],
    });
    const me = (await call('GET', '/me', who.headers)).json();
    expect(me).toMatchObject({ role: 'support', permissions: ['users.read', 'users.manage', 'trail.read'] });
    // The step-up lasts 5 minutes on the app's clock: a second before its end staff still act, a second after not.
    t.clock.set(until - 1000);
    expect((await call('GET', '/users', who.headers)).statusCode).toBe(200);
    expect((await call('GET', '/me', who.headers)).json().step_up_until).toBe(new Date(until).toISOString());
    t.clock.advance(2000);
    expect((await call('GET', '/users', who.headers)).json()).toEqual({ errors: ['admin.step_up_required'] });
    expect((await call('GET', '/me', who.headers)).json().step_up_until).toBeNull();
  });

  it('lets support find, lock and unlock an account; a locked customer is signed out at once', async () => {
    const who = staff.support;
    await stepUp(who);
    const found = await call('GET', '/users?q=customer@', who.headers);
    expect(found.headers.total).toBe('1');
    expect(found.json()[0]).toMatchObject({ uid: customer.uid, email: 'customer@example.com' });
    const detail = (await call('GET', `/users/${customer.uid}`, who.headers)).json();
    expect(detail.balances).toEqual([{ currency: 'usdt', balance: '100', locked: '0' }]);
    const probe = await person('probe@example.com', 'member');
    expect((await call('POST', `/users/${probe.uid}/lock`, who.headers, {})).json()).toEqual({
      errors: ['admin.reason_required'],
    });
    expect(
      (await call('POST', `/users/${probe.uid}/lock`, who.headers, { reason: 'fraud report' })).json(),
    ).toEqual({ uid: probe.uid, state: 'locked' });
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/v2/barong/resource/users/me',
      headers: probe.headers,
    });
    expect(me.statusCode).toBe(401);
    expect(
      (await call('POST', `/users/${probe.uid}/unlock`, who.headers, { reason: 'cleared' })).json(),
    ).toEqual({ uid: probe.uid, state: 'active' });
    expect((await call('POST', `/users/${who.uid}/lock`, who.headers, { reason: 'myself' })).json()).toEqual({
      errors: ['admin.user.own_account'],
    });
  });

  it('lets support reset the 2FA of a user who lost their authenticator: signed out, and withdrawals on hold', async () => {
    const who = staff.support;
    await stepUp(who);
    const lost = await person('lost-phone@example.com', 'member');
    await t.db.pool.query('update users set level = 3 where id = $1', [lost.id]);
    await t.db.pool.query(`update users set password_changed_at = now() - interval '3 days' where id = $1`, [
      lost.id,
    ]);
    const permission = async (headers: Headers) =>
      t.app.inject({ method: 'GET', url: '/api/v2/peatio/account/withdraw_permission', headers });
    expect((await permission(lost.headers)).json()).toMatchObject({ allowed: true, otp: true });
    const noReason = await call('POST', `/users/${lost.uid}/reset_2fa`, who.headers, {});
    expect(noReason.json()).toEqual({ errors: ['admin.reason_required'] });
    const reset = await call('POST', `/users/${lost.uid}/reset_2fa`, who.headers, {
      reason: 'passport and selfie checked on a video call',
    });
    expect(reset.json()).toEqual({ uid: lost.uid, otp: false });
    expect((await permission(lost.headers)).statusCode).toBe(401);
    const row = (await t.db.pool.query('select otp, otp_secret_enc from users where id = $1', [lost.id]))
      .rows[0];
    expect(row).toEqual({ otp: false, otp_secret_enc: null });
    // Back in with a new session: withdrawals wait out the hold, as after any 2FA change.
    const fresh = await sessionFor(t.deps.sessions, lost.id);
    const after = (await permission(fresh)).json();
    expect(after).toMatchObject({ allowed: false, otp: false });
    expect(new Date(after.hold_until).getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);
    const notice = await t.db.pool.query('select subject from mail_outbox where recipient = $1', [
      'lost-phone@example.com',
    ]);
    expect(notice.rows.map((r) => r.subject)).toContain(
      'Security notice: Two-factor authentication was reset by our support team',
    );
    const again = await call('POST', `/users/${lost.uid}/reset_2fa`, who.headers, { reason: 'twice' });
    expect([again.statusCode, again.json()]).toEqual([422, { errors: ['admin.user.2fa_off'] }]);
    const own = await call('POST', `/users/${who.uid}/reset_2fa`, who.headers, { reason: 'myself' });
    expect(own.json()).toEqual({ errors: ['admin.user.own_account'] });
    const trail = (await call('GET', '/actions?action=user.2fa_reset', who.headers)).json();
    expect(trail[0]).toMatchObject({ target: lost.uid, after: { otp: false } });
  });

  it('moves money only with four eyes: the proposer cannot approve, a second accountant can, once', async () => {
    const [a, b] = [staff.accountant, staff.accountant2];
    await stepUp(a);
    await stepUp(b);
    const balance = async () => t.deps.core.sequencer.state.balance(customer.id, 'usdt').balance;
    const before = await balance();
    const proposed = await call('POST', '/adjustments', a.headers, {
      uid: customer.uid,
      currency: 'usdt',
      amount: '25.5',
      reason: 'goodwill credit',
    });
    expect(proposed.statusCode, proposed.body).toBe(201);
    const id = proposed.json().id as number;
    expect(proposed.json()).toMatchObject({
      state: 'proposed',
      amount: '25.5',
      proposed_by: 'accountant@example.com',
    });
    expect(await balance()).toBe(before);
    // Not the customer's business yet.
    const theirs = await t.app.inject({
      method: 'GET',
      url: '/api/v2/peatio/account/adjustments',
      headers: customer.headers,
    });
    expect(theirs.json()).toEqual([]);

    expect((await call('POST', `/adjustments/${id}/approve`, a.headers, {})).json()).toEqual({
      errors: ['admin.adjustment.own_proposal'],
    });
    await expect(
      t.db.pool.query('update adjustments set decided_by = proposed_by where id = $1', [id]),
    ).rejects.toThrow(/four_eyes/);
    const approved = await call('POST', `/adjustments/${id}/approve`, b.headers, {});
    expect(approved.json()).toMatchObject({ state: 'accepted', decided_by: 'accountant2@example.com' });
    // Decided on the app's clock (moved on by the tests above), not the database's.
    const decided = await t.db.pool.query('select decided_at from adjustments where id = $1', [id]);
    expect(Math.abs(decided.rows[0].decided_at.getTime() - t.clock.now())).toBeLessThan(60_000);
    expect(await balance()).toBe(before + 25_500_000n);
    expect((await call('POST', `/adjustments/${id}/approve`, b.headers, {})).json()).toEqual({
      errors: ['admin.adjustment.not_proposed'],
    });
    expect(await balance()).toBe(before + 25_500_000n);

    const debit = (
      await call('POST', '/adjustments', b.headers, {
        uid: customer.uid,
        currency: 'usdt',
        amount: '-10',
        reason: 'fee correction',
      })
    ).json();
    expect(
      (await call('POST', `/adjustments/${debit.id}/reject`, a.headers, { reason: 'not justified' })).json(),
    ).toMatchObject({ state: 'rejected' });
    expect(await balance()).toBe(before + 25_500_000n);
    const refusals: [Record<string, string>, number, string][] = [
      [{ amount: '0' }, 422, 'admin.adjustment.invalid_amount'],
      [{ amount: '1.1234567' }, 422, 'admin.adjustment.invalid_amount'],
      [{ amount: '1e5' }, 422, 'admin.adjustment.invalid_amount'],
      [{ currency: 'xyz' }, 422, 'admin.adjustment.invalid_currency'],
      [{ uid: 'ID0000000000' }, 404, 'admin.user.not_found'],
      [{ uid: a.uid }, 403, 'admin.user.own_account'],
      [{ reason: '' }, 422, 'admin.reason_required'],
    ];
    for (const [bad, status, error] of refusals) {
      const body = { uid: customer.uid, currency: 'usdt', amount: '1', reason: 'bad input', ...bad };
      const res = await call('POST', '/adjustments', a.headers, body);
      expect([res.statusCode, res.json()], JSON.stringify(bad)).toEqual([status, { errors: [error] }]);
    }
    // None of them left a proposal behind.
    expect((await call('GET', '/adjustments?state=proposed', a.headers)).json()).toEqual([]);
    expect(await auditLedger(t.db.pool)).toEqual([]);
  });

  it('reviews an applicant with the documents shown, through the provider, and the user becomes level 3', async () => {
    const applicant = await kyc.signedIn('applicant@example.com');
    expect((await kyc.call('POST', '/resource/profiles', applicant.session, PROFILE)).statusCode).toBe(201);
    expect((await kyc.submitOnPage(await kyc.widgetToken(applicant.session))).status).toBeLessThan(400);
    const who = staff.compliance;
    await stepUp(who);
    const queue = (await call('GET', '/kyc', who.headers)).json() as {
      uid: string;
      documents: { id: number; mime_type: string }[];
    }[];
    const entry = queue.find((q) => q.uid === applicant.uid);
    expect(entry?.documents.length).toBe(2);
    const image = await call(
      'GET',
      `/kyc/${applicant.uid}/documents/${entry?.documents[0]?.id}`,
      who.headers,
    );
    expect(image.statusCode).toBe(200);
    expect(image.headers['cache-control']).toBe('no-store, private');
    expect(image.headers['content-type']).toBe('image/jpeg');
    // A document is found only under its own applicant: another uid with this document's id gets nothing.
    const elsewhere = await call(
      'GET',
      `/kyc/${customer.uid}/documents/${entry?.documents[0]?.id}`,
      who.headers,
    );
    expect([elsewhere.statusCode, elsewhere.json()]).toEqual([404, { errors: ['admin.user.not_found'] }]);
    const reviewed = await call('POST', `/kyc/${applicant.uid}/review`, who.headers, {
      decision: 'approve',
      reason: 'documents match',
    });
    expect(reviewed.json()).toMatchObject({ review_status: 'completed', review_answer: 'GREEN' });
    expect(await kyc.settled(applicant.id)).toEqual({ kyc: 'verified', document: 'verified', level: 3 });
    expect(
      (
        await call('POST', `/kyc/${applicant.uid}/review`, who.headers, {
          decision: 'reject',
          reason: 'again',
        })
      ).json(),
    ).toEqual({ errors: ['admin.kyc.not_reviewable'] });
  });

  it('asks an applicant to retry with a reason the applicant reads, and keeps it from other users', async () => {
    const applicant = await kyc.signedIn('retry@example.com');
    expect((await kyc.call('POST', '/resource/profiles', applicant.session, PROFILE)).statusCode).toBe(201);
    expect((await kyc.submitOnPage(await kyc.widgetToken(applicant.session))).status).toBeLessThan(400);
    const review = () => kyc.call('GET', '/resource/kyc/review', applicant.session);
    await kyc.settled(applicant.id);
    expect((await review()).json()).toEqual({ kyc_status: 'in_review', comment: null });
    await stepUp(staff.compliance);
    const reason = 'The photo of the passport is blurred: please take it again in daylight';
    const decided = await call('POST', `/kyc/${applicant.uid}/review`, staff.compliance.headers, {
      decision: 'retry',
      reason,
    });
    expect(decided.json()).toMatchObject({ review_answer: 'RED' });
    expect(await kyc.settled(applicant.id)).toMatchObject({ kyc: 'retry' });
    expect((await review()).json()).toEqual({ kyc_status: 'retry', comment: reason });
    // Another user sees only their own (no comment), and a visitor nothing.
    const other = await kyc.signedIn('other-applicant@example.com');
    expect((await kyc.call('GET', '/resource/kyc/review', other.session)).json()).toEqual({
      kyc_status: 'pending',
      comment: null,
    });
    expect((await t.app.inject('/api/v2/barong/resource/kyc/review')).statusCode).toBe(401);
  });

  it('keeps an append-only trail of every staff action, filterable, that nothing can change', async () => {
    const who = staff.technical;
    await stepUp(who);
    const trail = await call('GET', '/actions?action=adjustment.approve', who.headers);
    expect(trail.json()).toEqual([
      expect.objectContaining({
        staff: 'accountant2@example.com',
        action: 'adjustment.approve',
        after: { state: 'pending' },
      }),
    ]);
    const all = (await call('GET', '/actions?limit=100', who.headers)).json() as { action: string }[];
    for (const action of [
      'staff.step_up',
      'user.lock',
      'user.unlock',
      'adjustment.propose',
      'adjustment.reject',
      'kyc.approve',
    ])
      expect(all.map((a) => a.action)).toContain(action);
    // The app's role may not change the trail at all; even the schema's owner is stopped by its trigger.
    await expect(t.db.pool.query(`update staff_actions set action = 'nothing'`)).rejects.toThrow(
      /permission denied/,
    );
    await expect(t.db.pool.query('delete from staff_actions')).rejects.toThrow(/permission denied/);
    await expect(t.db.ownerPool.query(`update staff_actions set action = 'nothing'`)).rejects.toThrow(
      /append-only/,
    );
    await expect(t.db.ownerPool.query('delete from staff_actions')).rejects.toThrow(/append-only/);
  });
});
