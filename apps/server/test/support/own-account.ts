import { beforeAll, describe, expect, it } from 'vitest';
import { type CardSuite, cardSuite, USDT } from './card.ts';
import { kycHarness, PROFILE } from './kyc.ts';
import { adminCall, asStaff, type Person, stepUp, totpCode } from './staff.ts';
import { type Member, TRX, WalletSuite } from './wallet.ts';

/**
 * Staff acting on their own customer account (issue 25: an accountant approved a credit to herself): every
 * console action that names an account, refused with 403 `admin.user.own_account`, with nothing changed (the
 * state it would have changed, the money, the provider's queue, the trail), while another staff member may act.
 * admin-own-account.test.ts runs it as it is; admin-own-account-db.test.ts with the service's check switched off,
 * so that only the database refuses.
 */
export interface OwnAccountSuite {
  s: CardSuite;
  w: WalletSuite;
  /** A new level-3 member (or the user `id`) made staff with `role`, two-factor on, stepped up. */
  staff(email: string, role: string, id?: number): Promise<Person>;
  /** `POST /account/withdraws` of TRX with a fresh authenticator code. */
  withdraw(who: Member, beneficiary: number, amount: string): ReturnType<WalletSuite['withdraw']>;
}

/** Registers the file's app (listening: the KYC and card simulators talk over HTTP) and the scenarios. */
export function ownAccountSuite(title: string): OwnAccountSuite {
  const s = cardSuite();
  const w = new WalletSuite();
  beforeAll(() => {
    w.t = s.t;
  });
  const kyc = kycHarness(() => ({ t: s.t, base: s.base }));
  /** A withdrawal with a fresh authenticator code of `who`. */
  const withdraw = async (who: Member, beneficiary: number, amount: string) => {
    await s.db.query('update users set otp_last_step = 0 where id = $1', [who.id]);
    const res = await w.withdraw(who, beneficiary, amount, totpCode(who));
    expect(res.statusCode, res.body).toBe(201);
    return res;
  };
  const staff = async (email: string, role: string, id?: number) => {
    const person = await asStaff(s.t, id ?? (await s.member(email)).id, role);
    // The account's own code of this 30-second step may have been used (a withdrawal): start afresh.
    await s.db.query('update users set otp_last_step = 0 where id = $1', [person.id]);
    await stepUp(s.t, person);
    return person;
  };
  const call = (p: Person, method: string, url: string, body?: unknown) =>
    adminCall(s.t, method, url, p.headers, body);
  const refused = async (p: Person, method: string, url: string, body?: unknown) => {
    const res = await call(p, method, url, body);
    expect([res.statusCode, res.json()], `${method} ${url}`).toEqual([
      403,
      { errors: ['admin.user.own_account'] },
    ]);
  };
  /** The staff trail without the step-ups: what staff changed. */
  const trail = async () =>
    (await s.db.query(`select count(*)::int as n from staff_actions where action <> 'staff.step_up'`)).rows[0]
      .n as number;
  const rows = async (sql: string, params: unknown[]) => (await s.db.query(sql, params)).rows;

  describe(title, () => {
    it('an accountant neither proposes nor decides an adjustment of her own account, whoever proposed it', async () => {
      const proposer = await staff('proposer@own.test', 'accountant');
      const self = await staff('self@own.test', 'accountant');
      const proposed = await call(proposer, 'POST', '/adjustments', {
        uid: self.uid,
        currency: 'usdt',
        amount: '1000',
        reason: 'goodwill credit',
      });
      expect(proposed.statusCode, proposed.body).toBe(201);
      const id = proposed.json().id as number;
      const state = async () => ({
        balance: s.usdt(self),
        adjustments: await rows(
          'select id, state, proposed_by, decided_by from adjustments where user_id = $1 order by id',
          [self.id],
        ),
        trail: await trail(),
      });
      const before = await state();
      await refused(self, 'POST', `/adjustments/${id}/approve`, {});
      await refused(self, 'POST', `/adjustments/${id}/reject`, { reason: 'not for me' });
      for (const amount of ['1000', '-5'])
        await refused(self, 'POST', '/adjustments', {
          uid: self.uid,
          currency: 'usdt',
          amount,
          reason: 'my own',
        });
      expect(await state()).toEqual(before);
      expect(before.balance).toBe(0n);
      // A third accountant may approve it: four eyes between proposer and approver, neither of them the account.
      const third = await staff('third@own.test', 'accountant');
      const approved = await call(third, 'POST', `/adjustments/${id}/approve`, {});
      expect(approved.json()).toMatchObject({ state: 'accepted', decided_by: 'third@own.test' });
      expect(s.usdt(self)).toBe(1000n * USDT);
    });

    it('a compliance officer decides no withdrawal from or to her own account, nor resolves an errored one', async () => {
      await s.db.query(
        `insert into withdraw_limits (level, currency_id, per_withdrawal) values (3, 'trx', 20)`,
      );
      const { who, beneficiary } = await w.withdrawer('officer@own.test', 100n * TRX);
      const held = (await withdraw(who, beneficiary, '30')).json();
      expect(held.state).toBe('under_review');
      const errored = (await withdraw(who, beneficiary, '12')).json();
      expect(errored.state).toBe('accepted');
      await s.db.query(`update withdrawals set state = 'errored', error = 'timeout' where id = $1`, [
        errored.id,
      ]);
      // A customer's transfer inside the exchange to the officer's deposit address, held by the limit too.
      const sender = await w.member('sender@own.test');
      await w.credit(sender, 'trx', 50n * TRX);
      const toOfficer = await w.activeBeneficiary(sender, await w.depositAddress(who));
      const incoming = (await withdraw(sender, toOfficer, '30')).json();
      expect(incoming).toMatchObject({ state: 'under_review', transaction_type: 'internal' });
      const officer = await staff(who.email, 'compliance', who.id);
      // The queue names both accounts, so the console can leave out the buttons on the officer's own.
      const queue = (await call(officer, 'GET', '/withdrawals')).json() as { id: number }[];
      expect(queue.filter((q) => q.id === held.id || q.id === incoming.id)).toEqual([
        expect.objectContaining({ id: held.id, uid: officer.uid, recipient_uid: null }),
        expect.objectContaining({ id: incoming.id, recipient_uid: officer.uid }),
      ]);
      const ids = [held.id, errored.id, incoming.id];
      const state = async () => ({
        withdrawals: await rows(
          'select id, state, reviewed_by, resolution, note from withdrawals where id = any($1) order by id',
          [ids],
        ),
        officer: w.balance(who, 'trx'),
        sender: w.balance(sender, 'trx'),
        trail: await trail(),
      });
      const before = await state();
      for (const id of [held.id, incoming.id]) {
        await refused(officer, 'POST', `/withdrawals/${id}/approve`, {});
        await refused(officer, 'POST', `/withdrawals/${id}/reject`, { reason: 'not mine to decide' });
      }
      await refused(officer, 'POST', `/withdrawals/${errored.id}/resolve`, { decision: 'failed' });
      await refused(officer, 'POST', `/withdrawals/${errored.id}/resolve`, {
        decision: 'sent',
        txid: 'a'.repeat(64),
      });
      expect(await state()).toEqual(before);
      // Another officer decides them.
      const other = await staff('other-officer@own.test', 'compliance');
      for (const id of [held.id, incoming.id]) {
        const res = await call(other, 'POST', `/withdrawals/${id}/reject`, { reason: 'checked by another' });
        expect(res.json()).toMatchObject({ state: 'rejected', reviewed_by: 'other-officer@own.test' });
      }
      await s.db.query('delete from withdraw_limits');
    });

    it('a compliance officer takes no decision on her own identity verification', async () => {
      const applicant = await kyc.signedIn('kyc-officer@example.com');
      expect((await kyc.call('POST', '/resource/profiles', applicant.session, PROFILE)).statusCode).toBe(201);
      const tokenAnswer = await kyc.call('GET', '/resource/sumsub/token', applicant.session);
      // Said with its answer when it is not a token (once seen failing in a full run on a loaded machine).
      expect(tokenAnswer.statusCode, tokenAnswer.body).toBe(200);
      const token = tokenAnswer.json();
      expect((await kyc.submitOnPage(token.token)).status).toBeLessThan(400);
      await kyc.settled(applicant.id);
      const officer = await staff(applicant.email, 'compliance', Number(applicant.id));
      const state = async () => ({
        applicant: await rows(
          `select review_status, review_answer, moderation_comment from kyc_sim_applicants
           where external_user_id = $1`,
          [applicant.uid],
        ),
        webhooks: await rows(
          `select count(*)::int as n from kyc_sim_webhooks where payload::jsonb->>'externalUserId' = $1`,
          [applicant.uid],
        ),
        user: await kyc.state(applicant.id),
        trail: await trail(),
      });
      const before = await state();
      expect(before.applicant).toEqual([expect.objectContaining({ review_status: 'pending' })]);
      for (const decision of ['approve', 'reject', 'retry'])
        await refused(officer, 'POST', `/kyc/${applicant.uid}/review`, { decision, reason: 'my own papers' });
      expect(await state()).toEqual(before);
      const other = await staff('kyc-other@own.test', 'compliance');
      const approved = await call(other, 'POST', `/kyc/${applicant.uid}/review`, {
        decision: 'approve',
        reason: 'documents match',
      });
      expect(approved.json()).toMatchObject({ review_answer: 'GREEN' });
    });

    it('a compliance officer takes no decision on her own card application', async () => {
      const holder = await s.member('card-officer@own.test');
      await s.submitted(holder);
      const officer = await staff(holder.email, 'compliance', holder.id);
      const state = async () => ({
        issuer: await rows(
          `select k.status from cardsim_kyc k join card_holders h on h.issuer_user_token = k.user_token
           where h.user_id = $1 order by k.created_time`,
          [holder.id],
        ),
        holder: await rows('select status from card_holders where user_id = $1', [holder.id]),
        webhooks: await rows('select count(*)::int as n from cardsim_webhooks', []),
        trail: await trail(),
      });
      const before = await state();
      expect(before.issuer).toEqual([{ status: 'pending' }]);
      for (const decision of ['approve', 'reject', 'incomplete'])
        await refused(officer, 'POST', `/card_holders/${officer.uid}/review`, {
          decision,
          reason: 'my own application',
        });
      expect(await state()).toEqual(before);
      const other = await staff('card-other@own.test', 'compliance');
      const approved = await call(other, 'POST', `/card_holders/${officer.uid}/review`, {
        decision: 'approve',
        reason: 'documents match',
      });
      expect(approved.json()).toEqual({ uid: officer.uid, kyc_status: 'success' });
    });

    it('support (and a superadmin) neither lock, unlock, reset the 2FA of nor sign out their own account', async () => {
      for (const role of ['support', 'superadmin']) {
        const self = await staff(`${role}-self@own.test`, role);
        const state = async () => ({
          user: await rows('select state, otp, otp_secret_enc, updated_at from users where id = $1', [
            self.id,
          ]),
          sessions: await rows(
            'select id from sessions where user_id = $1 and revoked_at is null order by id',
            [self.id],
          ),
          activity: await rows('select count(*)::int as n from activities where user_id = $1', [self.id]),
          mail: await rows('select count(*)::int as n from mail_outbox where recipient = $1', [self.email]),
          trail: await trail(),
        });
        const before = await state();
        await refused(self, 'POST', `/users/${self.uid}/lock`, { reason: 'myself' });
        await refused(self, 'POST', `/users/${self.uid}/unlock`, { reason: 'myself' });
        await refused(self, 'POST', `/users/${self.uid}/reset_2fa`, { reason: 'lost my phone' });
        await refused(self, 'DELETE', `/users/${self.uid}/sessions`);
        expect(await state(), role).toEqual(before);
        expect((await call(self, 'GET', '/me')).statusCode).toBe(200);
      }
    });
  });

  return { s, w, staff, withdraw };
}
