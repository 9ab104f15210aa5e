import { describe, expect, it } from 'vitest';
import { hotWallet } from '../../src/modules/wallet/addresses.ts';
import { sessionFor } from '../support/core.ts';
import { adminCall, asStaff, type Person, stepUp } from '../support/staff.ts';
import { externalAddress, type Member, TRX, walletSuite } from '../support/wallet.ts';

/**
 * The console's withdrawal review: withdrawals above a limit, to a just-saved address or passing just-deposited
 * money straight on wait for staff; approved, one is broadcast exactly once; rejected, its funds come back exactly
 * once. The file's ledger audit runs after it (walletSuite).
 */
const w = walletSuite({
  WITHDRAW_REVIEW_NEW_BENEFICIARY_HOURS: '24',
  WITHDRAW_REVIEW_PASS_THROUGH_MINUTES: '60',
});
const { member, call, balance, withdrawer, withdraw, credit, activeBeneficiary, mine } = w;

let officers: { compliance: Person; accountant: Person } | undefined;
/** A compliance officer and an accountant, stepped up. */
async function staff() {
  if (!officers) {
    const make = async (email: string, role: string) => {
      const p = await asStaff(w.t, (await member(email)).id, role);
      await stepUp(w.t, p);
      return p;
    };
    officers = {
      compliance: await make('compliance@review.test', 'compliance'),
      accountant: await make('accountant@review.test', 'accountant'),
    };
  }
  return officers;
}
/** A compliance officer signed in and stepped up now (on the app's clock, wherever a test moved it). */
async function freshCompliance(email: string): Promise<Person> {
  const p = await asStaff(w.t, (await member(email)).id, 'compliance');
  await stepUp(w.t, p);
  return p;
}
const admin = (p: Person, method: string, url: string, body?: unknown) =>
  adminCall(w.t, method, url, p.headers, body);
const history = async (who: Member) => (await call(who, 'GET', '/account/withdraws')).json();
/** Makes a saved address older than the new-address rule's 24 hours (on the app's clock, which reads it). */
const age = (beneficiary: number) =>
  w.t.db.pool.query(
    `update beneficiaries set activated_at = $2::timestamptz - interval '2 days' where id = $1`,
    [beneficiary, new Date(w.t.clock.now())],
  );

async function fundHotWallet() {
  const network = w.t.deps.wallet.chains.get('tron-sim');
  if (!network) throw new Error('no tron-sim');
  await w.tron.faucet((await hotWallet(w.t.db.pool, network)).address, 'trx', 10_000n * TRX);
  await mine(1);
}

describe('withdrawal review', () => {
  it('holds a withdrawal to a just-saved address; approved, it is broadcast exactly once', async () => {
    await fundHotWallet();
    const { compliance } = await staff();
    const { who, target, beneficiary } = await withdrawer('new-address@review.test', 100n * TRX);
    const res = await withdraw(who, beneficiary, '40');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ state: 'under_review', amount: '40' });
    expect(balance(who, 'trx')).toEqual({ balance: 60n * TRX, locked: 40n * TRX });
    // The user's "processing" filter shows it; the processor leaves it alone.
    expect((await call(who, 'GET', '/account/withdraws?state=processing')).json()).toHaveLength(1);
    await w.t.deps.wallet.tick();
    expect((await history(who))[0].state).toBe('under_review');
    expect(await w.tronChain.balance(target, 'trx')).toBe(0n);

    const queue = await admin(compliance, 'GET', '/withdrawals');
    expect(queue.statusCode).toBe(200);
    const queued = queue.json().find((q: { email: string }) => q.email === who.email);
    expect(queued).toMatchObject({ amount: '40', currency: 'trx', review_reasons: ['beneficiary.new'] });

    const [first, second] = await Promise.all([
      admin(compliance, 'POST', `/withdrawals/${queued.id}/approve`, {}),
      admin(compliance, 'POST', `/withdrawals/${queued.id}/approve`, {}),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 422]);
    expect([first, second].find((r) => r.statusCode === 422)?.json()).toEqual({
      errors: ['admin.withdrawal.not_under_review'],
    });
    await w.t.deps.wallet.tick();
    await w.t.deps.wallet.tick();
    expect((await history(who))[0].state).toBe('confirming');
    await mine(30);
    await w.t.deps.wallet.tick();
    expect((await history(who))[0].state).toBe('succeed');
    // 40 − 1 fee reached the address once; a second broadcast would show 78.
    expect(await w.tronChain.balance(target, 'trx')).toBe(39n * TRX);
    expect(balance(who, 'trx')).toEqual({ balance: 60n * TRX, locked: 0n });
  });

  it('rejected, the funds come back exactly once and the user sees the reason', async () => {
    const { accountant } = await staff();
    const { who, beneficiary } = await withdrawer('rejected@review.test', 50n * TRX);
    const id = (await withdraw(who, beneficiary, '30')).json().id as number;
    expect(balance(who, 'trx')).toEqual({ balance: 20n * TRX, locked: 30n * TRX });

    const tooShort = await admin(accountant, 'POST', `/withdrawals/${id}/reject`, { reason: 'no' });
    expect([tooShort.statusCode, tooShort.json()]).toEqual([422, { errors: ['admin.reason_required'] }]);
    expect(balance(who, 'trx')).toEqual({ balance: 20n * TRX, locked: 30n * TRX });

    const reason = 'We could not confirm this address belongs to you';
    const results = await Promise.all([
      admin(accountant, 'POST', `/withdrawals/${id}/reject`, { reason }),
      admin(accountant, 'POST', `/withdrawals/${id}/reject`, { reason }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 422]);
    const late = await admin(accountant, 'POST', `/withdrawals/${id}/approve`, {});
    expect([late.statusCode, late.json()]).toEqual([422, { errors: ['admin.withdrawal.not_under_review'] }]);
    expect(balance(who, 'trx')).toEqual({ balance: 50n * TRX, locked: 0n });
    await w.t.deps.wallet.tick();
    expect(balance(who, 'trx')).toEqual({ balance: 50n * TRX, locked: 0n });
    expect((await history(who))[0]).toMatchObject({ id, state: 'rejected', note: reason });
  });

  it('a rejection cut off before the release is finished by the processor, once', async () => {
    const { who, beneficiary } = await withdrawer('crashed@review.test', 50n * TRX);
    const id = (await withdraw(who, beneficiary, '30')).json().id as number;
    // As if the process stopped right after committing the decision.
    await w.t.db.pool.query(`update withdrawals set state = 'rejected' where id = $1`, [id]);
    expect(balance(who, 'trx')).toEqual({ balance: 20n * TRX, locked: 30n * TRX });
    await w.t.deps.wallet.tick();
    expect(balance(who, 'trx')).toEqual({ balance: 50n * TRX, locked: 0n });
    await w.t.deps.wallet.tick();
    expect(balance(who, 'trx')).toEqual({ balance: 50n * TRX, locked: 0n });
  });

  it('applies the limits of the user level per withdrawal and per 24 hours', async () => {
    const { compliance } = await staff();
    const put = (body: unknown) => admin(compliance, 'PUT', '/withdraw_limits', body);
    for (const [body, code] of [
      [
        { level: 3, currency: 'nope', per_withdrawal: '1', per_day: null },
        'admin.withdraw_limit.invalid_currency',
      ],
      [
        { level: 3, currency: 'trx', per_withdrawal: '0.0000001', per_day: null },
        'admin.withdraw_limit.invalid_amount',
      ],
      [
        { level: 3, currency: 'trx', per_withdrawal: '0', per_day: null },
        'admin.withdraw_limit.invalid_amount',
      ],
      [
        { level: 3, currency: 'trx', per_withdrawal: 10, per_day: null },
        'admin.withdraw_limit.invalid_amount',
      ],
      [
        { level: 11, currency: 'trx', per_withdrawal: '1', per_day: null },
        'admin.withdraw_limit.invalid_level',
      ],
    ] as const) {
      const res = await put(body);
      expect([res.statusCode, res.json()], JSON.stringify(body)).toEqual([422, { errors: [code] }]);
    }
    expect((await admin(compliance, 'GET', '/withdraw_limits')).json()).toEqual([]);

    // Level 0 is stricter; a level-3 user gets the level-3 row.
    expect((await put({ level: 0, currency: 'trx', per_withdrawal: '1', per_day: '1' })).statusCode).toBe(
      200,
    );
    const set = await put({ level: 3, currency: 'trx', per_withdrawal: '20', per_day: '55.5' });
    expect(set.json()).toMatchObject({ level: 3, currency: 'trx', per_withdrawal: '20', per_day: '55.5' });

    const { who, beneficiary } = await withdrawer('limits@review.test', 200n * TRX);
    await age(beneficiary);
    const states = [];
    for (const amount of ['20.000001', '12', '12', '12'])
      states.push((await withdraw(who, beneficiary, amount)).json());
    expect(states.map((s) => s.state)).toEqual(['under_review', 'accepted', 'accepted', 'under_review']);
    const queued = (await admin(compliance, 'GET', '/withdrawals')).json();
    const held = queued.filter((q: { email: string }) => q.email === who.email);
    // The one waiting for review counts in the day: 20.000001 + 12 + 12 + 12 > 55.5.
    expect(held.map((q: { review_reasons: string[] }) => q.review_reasons)).toEqual([
      ['limit.per_withdrawal'],
      ['limit.per_day'],
    ]);
    // Rejected ones leave the day's total: 12 + 12 + 20 + 11.5 is exactly the limit, and fits.
    for (const q of held)
      await admin(compliance, 'POST', `/withdrawals/${q.id}/reject`, { reason: 'over the limit' });
    expect((await withdraw(who, beneficiary, '20')).json().state).toBe('accepted');
    expect((await withdraw(who, beneficiary, '11.5')).json().state).toBe('accepted');
    expect((await withdraw(who, beneficiary, '11')).json().state).toBe('under_review');
    const last = (await admin(compliance, 'GET', '/withdrawals')).json().at(-1);
    await admin(compliance, 'POST', `/withdrawals/${last.id}/reject`, { reason: 'over the limit' });

    const removed = await put({ level: 3, currency: 'trx', per_withdrawal: null, per_day: null });
    expect([removed.statusCode, removed.json()]).toEqual([200, null]);
    const trail = (await admin(compliance, 'GET', '/actions?action=withdraw_limit.set')).json();
    expect(trail[0]).toMatchObject({ target: 'withdraw_limit:3:trx', after: null });
    expect(trail[0].before).toMatchObject({ per_withdrawal: '20', per_day: '55.5' });
    await put({ level: 0, currency: 'trx', per_withdrawal: null, per_day: null });
  });

  it('flags money passing straight through: most of it deposited in the last hour', async () => {
    const who = await member('mule@review.test');
    const address = await w.depositAddress(who);
    await w.tron.faucet(address, 'trx', 80n * TRX);
    await mine(30);
    expect(balance(who, 'trx').balance).toBe(80n * TRX);
    await credit(who, 'trx', 100n * TRX);
    const beneficiary = await activeBeneficiary(who, externalAddress('tron'));
    await age(beneficiary);
    // 80 deposited in the hour: 30 out is not half of it; 15 more makes 45, and it waits.
    expect((await withdraw(who, beneficiary, '30')).json().state).toBe('accepted');
    const flagged = (await withdraw(who, beneficiary, '15')).json();
    expect(flagged.state).toBe('under_review');
    const { compliance } = await staff();
    const queued = (await admin(compliance, 'GET', '/withdrawals')).json();
    expect(queued.find((q: { id: number }) => q.id === flagged.id).review_reasons).toEqual([
      'rule.pass_through',
    ]);
  });

  it('an internal transfer waits too, and settles at once when approved', async () => {
    const { accountant } = await staff();
    const sender = await member('sender@review.test');
    await credit(sender, 'trx', 20n * TRX);
    const receiver = await member('receiver@review.test');
    const beneficiary = await activeBeneficiary(sender, await w.depositAddress(receiver));
    const res = (await withdraw(sender, beneficiary, '12')).json();
    expect(res).toMatchObject({ state: 'under_review', transaction_type: 'internal' });
    expect(balance(receiver, 'trx').balance).toBe(0n);
    const approved = await admin(accountant, 'POST', `/withdrawals/${res.id}/approve`, {});
    expect(approved.json()).toMatchObject({ state: 'succeed', reviewed_by: 'accountant@review.test' });
    expect(balance(receiver, 'trx').balance).toBe(12n * TRX);
    expect(balance(sender, 'trx')).toEqual({ balance: 8n * TRX, locked: 0n });
  });

  it('staff cannot decide their own withdrawal', async () => {
    const { who, beneficiary } = await withdrawer('officer@review.test', 20n * TRX);
    const made = await withdraw(who, beneficiary, '12');
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().id;
    const self = await asStaff(w.t, who.id, 'compliance');
    await w.t.db.pool.query('update users set otp_last_step = 0 where id = $1', [who.id]);
    await stepUp(w.t, self);
    const res = await admin(self, 'POST', `/withdrawals/${id}/approve`, {});
    expect([res.statusCode, res.json()]).toEqual([403, { errors: ['admin.user.own_account'] }]);
    expect((await history(who))[0].state).toBe('under_review');
  });

  it("a staff member's own withdrawal always waits for a colleague, within every limit", async () => {
    await fundHotWallet();
    const { compliance } = await staff();
    const { who, beneficiary } = await withdrawer('limit-setter@review.test', 20n * TRX);
    await age(beneficiary);
    // The same withdrawal of a customer goes straight out; a staff member's waits, whatever the limits say
    // (staff set them), and only someone else decides it.
    await w.t.db.pool.query(`update users set role = 'accountant' where id = $1`, [who.id]);
    const made = (await withdraw(who, beneficiary, '12')).json();
    expect(made.state).toBe('under_review');
    const queued = (await admin(compliance, 'GET', '/withdrawals')).json();
    expect(queued.find((q: { id: number }) => q.id === made.id).review_reasons).toEqual(['account.staff']);
    const approved = await admin(compliance, 'POST', `/withdrawals/${made.id}/approve`, {});
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().state).not.toBe('under_review');
  });

  it('resolves an errored withdrawal from the console: failed gives the funds back once', async () => {
    const { accountant } = await staff();
    const { who, beneficiary } = await withdrawer('errored@review.test', 50n * TRX);
    await age(beneficiary);
    const id = (await withdraw(who, beneficiary, '30')).json().id;
    // The broadcast's outcome was unknown (as the processor marks it).
    await w.t.db.pool.query(`update withdrawals set state = 'errored', error = 'timeout' where id = $1`, [
      id,
    ]);
    const listed = (await admin(accountant, 'GET', '/withdrawals?state=errored')).json();
    expect(listed.map((q: { id: number }) => q.id)).toContain(id);
    const badTxid = await admin(accountant, 'POST', `/withdrawals/${id}/resolve`, {
      decision: 'sent',
      txid: 'x',
    });
    expect([badTxid.statusCode, badTxid.json()]).toEqual([
      422,
      { errors: ['admin.withdrawal.invalid_txid'] },
    ]);
    const failed = await admin(accountant, 'POST', `/withdrawals/${id}/resolve`, { decision: 'failed' });
    expect(failed.statusCode).toBe(200);
    const sent = await admin(accountant, 'POST', `/withdrawals/${id}/resolve`, {
      decision: 'sent',
      txid: 'a'.repeat(64),
    });
    expect([sent.statusCode, sent.json()]).toEqual([422, { errors: ['admin.withdrawal.not_errored'] }]);
    await w.t.deps.wallet.tick();
    await w.t.deps.wallet.tick();
    const again = await admin(accountant, 'POST', `/withdrawals/${id}/resolve`, { decision: 'failed' });
    expect([again.statusCode, again.json()]).toEqual([422, { errors: ['admin.withdrawal.not_errored'] }]);
    expect(balance(who, 'trx')).toEqual({ balance: 50n * TRX, locked: 0n });
    expect((await history(who))[0].state).toBe('failed');
  });

  // The last two move the app's clock on, past the sessions made before (the cached staff's too).
  it("reads the pass-through hour on the app's clock, and counts a credit made after it moved", async () => {
    const who = await member('mule-clock@review.test');
    const address = await w.depositAddress(who);
    await w.tron.faucet(address, 'trx', 80n * TRX);
    await mine(30);
    const beneficiary = await activeBeneficiary(who, externalAddress('tron'));
    await age(beneficiary);
    expect((await withdraw(who, beneficiary, '40')).json().state).toBe('under_review');
    // An hour and a minute later the deposit has left the window (the session is used in between, so it does
    // not idle out): 20 more goes straight out.
    w.t.clock.advance(59 * 60_000);
    expect((await history(who)).length).toBe(1);
    w.t.clock.advance(2 * 60_000);
    expect((await withdraw(who, beneficiary, '20')).json().state).toBe('accepted');
    // A deposit credited now is stamped on the app's clock, so the window counts it: 20 + 12 out of 30 waits.
    await w.tron.faucet(address, 'trx', 30n * TRX);
    await mine(30);
    const flagged = await withdraw(who, beneficiary, '12');
    expect(flagged.json().state, flagged.body).toBe('under_review');
  });

  it("counts the day's limit in the 24 hours before the app's clock", async () => {
    const compliance = await freshCompliance('day-compliance@review.test');
    const put = (p: Person, perDay: string | null) =>
      admin(p, 'PUT', '/withdraw_limits', {
        level: 3,
        currency: 'trx',
        per_withdrawal: null,
        per_day: perDay,
      });
    expect((await put(compliance, '55.5')).statusCode).toBe(200);
    const { who, beneficiary } = await withdrawer('day-clock@review.test', 200n * TRX);
    await age(beneficiary);
    expect((await withdraw(who, beneficiary, '44')).json().state).toBe('accepted');
    const over = await withdraw(who, beneficiary, '12');
    expect(over.json().state, over.body).toBe('under_review');
    // A day and a minute later both have left the window (a new session: the old one ended with its 24 hours).
    w.t.clock.advance(24 * 3_600_000 + 60_000);
    who.headers = await sessionFor(w.t.deps.sessions, who.id);
    expect((await withdraw(who, beneficiary, '44')).json().state).toBe('accepted');
    // What is asked for now is stamped on the app's clock and counts: 44 + 12 is over 55.5.
    const waiting = (await withdraw(who, beneficiary, '12')).json();
    expect(waiting.state).toBe('under_review');
    const late = await freshCompliance('late-compliance@review.test');
    expect((await put(late, null)).statusCode).toBe(200);
    // The review is stamped on the app's clock too (a day ahead of the database's).
    const before = w.t.clock.now();
    const rejected = await admin(late, 'POST', `/withdrawals/${waiting.id}/reject`, {
      reason: 'Over the daily limit and not confirmed by the customer',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const reviewed = await w.t.db.pool.query('select reviewed_at from withdrawals where id = $1', [
      waiting.id,
    ]);
    const reviewedAt = (reviewed.rows[0].reviewed_at as Date).getTime();
    expect(reviewedAt).toBeGreaterThanOrEqual(before);
    expect(reviewedAt).toBeLessThanOrEqual(w.t.clock.now());
  });
});
