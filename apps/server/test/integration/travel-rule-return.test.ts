import { beforeAll, describe, expect, it } from 'vitest';
import { hotWallet } from '../../src/modules/wallet/addresses.ts';
import { adminCall, type Person, person, stepUp } from '../support/staff.ts';
import { incomingKit } from '../support/travel-rule-incoming.ts';
import { TRX, walletSuite } from '../support/wallet.ts';

/**
 * Returning a deposit held under the travel rule (issue 33 item 4; Regulation (EU) 2023/1113 art. 17): compliance's
 * "return" sends the funds back to the sender from the hot wallet through the withdrawal pipeline, once, the
 * network fee kept, in the ledger from `external` and back; refused where the chain names no sender.
 */
const w = walletSuite({ TRAVEL_RULE_INCOMING_WAIT_MINUTES: '10' });
const { sent, deposit, delivered, originatorRecord, decide, history } = incomingKit(w);
const CONFIRMATIONS = 30;
let compliance: Person;
let support: Person;

beforeAll(async () => {
  await w.t.app.listen({ port: 0, host: '127.0.0.1' });
  compliance = await person(w.t, 'officer@return.test', 'compliance');
  support = await person(w.t, 'support@return.test', 'support');
  await stepUp(w.t, compliance);
  await stepUp(w.t, support);
});

const pool = () => w.t.db.pool;

describe('returning a held deposit to its sender', () => {
  it('holds a deposit whose record names no originator, and returns it to the sender from the hot wallet, once', async () => {
    const network = w.t.deps.wallet.chains.get('tron-sim');
    if (!network) throw new Error('no tron-sim');
    await w.tron.faucet((await hotWallet(pool(), network)).address, 'trx', 1000n * TRX);
    const who = await w.member('nameless@return.test');
    const d = await sent(who, 12n);
    // No attribution of the sender: the record itself says a provider sent it.
    await delivered(d.txid, d.address, 'alpenkrypto', originatorRecord(d.from, false));
    await pool().query(`update deposits set created_at = now() - interval '11 minutes' where id = $1`, [
      d.id,
    ]);
    await w.mine(CONFIRMATIONS);
    expect(await deposit(d.id)).toMatchObject({ state: 'submitted', travel_rule_status: 'held' });
    const senderBefore = await w.tronChain.balance(d.from, 'trx');

    // The customer cannot return it; nobody without a session; support has no say.
    expect((await decide({ ...compliance, headers: who.headers }, d.id, 'return', 'mine')).statusCode).toBe(
      403,
    );
    expect((await decide({ ...compliance, headers: {} }, d.id, 'return', 'anyone')).statusCode).toBe(401);
    expect((await decide(support, d.id, 'return', 'send it back')).statusCode).toBe(403);
    // Two returns at once (a double click): one wins, the other finds it no longer held; one withdrawal.
    const [first, second] = await Promise.all([
      decide(compliance, d.id, 'return', 'No originator information after two requests'),
      decide(compliance, d.id, 'return', 'No originator information after two requests'),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 422]);
    const returned = first.statusCode === 200 ? first : second;
    expect(returned.json()).toMatchObject({
      status: 'returned',
      state: 'rejected',
      provider_id: 'alpenkrypto',
      record: originatorRecord(d.from, false),
      // The network's withdrawal fee (1 TRX) is kept, as for any withdrawal; the sender gets the rest.
      return: { state: 'accepted', amount: '12', fee: '1', to_address: d.from, txid: null },
    });
    const wid = returned.json().return.withdrawal_id as number;
    const rows = await pool().query(
      'select id::int, user_id::int, state, note from withdrawals where travel_rule_return_of = $1',
      [d.id],
    );
    expect(rows.rows).toEqual([
      { id: wid, user_id: who.id, state: 'accepted', note: 'travel rule: returned to the sender' },
    ]);
    // Never credited: held for the return from outside the customer's balance, so nothing of it can be spent.
    expect(w.balance(who, 'trx')).toEqual({ balance: 0n, locked: 12n * TRX });

    // The usual pipeline pays it from the hot wallet and follows it to its confirmations.
    await w.t.deps.wallet.tick();
    await w.mine(CONFIRMATIONS);
    expect(await deposit(d.id)).toMatchObject({ state: 'rejected', credited: false });
    expect(w.balance(who, 'trx')).toEqual({ balance: 0n, locked: 0n });
    expect(await w.tronChain.balance(d.from, 'trx')).toBe(senderBefore + 11n * TRX);
    const listed = (
      await adminCall(w.t, 'GET', '/travel_rule/deposits?state=returned', compliance.headers)
    ).json();
    expect(listed.find((r: { id: number }) => r.id === d.id)?.return).toMatchObject({
      withdrawal_id: wid,
      state: 'succeed',
      txid: expect.any(String),
    });
    // In the ledger with its cause: from `external` into the hold, then out to `external` with the fee kept.
    const postings = await pool().query(
      `select account, trim_scale(amount)::text as amount, kind, ref from ledger_postings
        where ref in ($1, $2) order by command_seq, kind, account`,
      [`withdraw-hold:${wid}`, `withdraw-settle:${wid}`],
    );
    const locked = `u:${who.id}:locked`;
    expect(postings.rows).toEqual([
      { account: 'external', amount: '-12', kind: 'withdrawal', ref: `withdraw-hold:${wid}` },
      { account: locked, amount: '12', kind: 'withdrawal', ref: `withdraw-hold:${wid}` },
      { account: 'fees', amount: '1', kind: 'fee', ref: `withdraw-settle:${wid}` },
      { account: locked, amount: '-1', kind: 'fee', ref: `withdraw-settle:${wid}` },
      { account: 'external', amount: '11', kind: 'withdrawal', ref: `withdraw-settle:${wid}` },
      { account: locked, amount: '-11', kind: 'withdrawal', ref: `withdraw-settle:${wid}` },
    ]);
    // The customer's history says it went back.
    expect((await history(who)).find((i) => i.id === d.id)).toMatchObject({
      state: 'rejected',
      message: 'account.deposit.travel_rule_returned',
    });
    expect((await decide(compliance, d.id, 'release', 'changed my mind')).statusCode).toBe(422);
    await w.mine(2);
    expect(w.balance(who, 'trx')).toEqual({ balance: 0n, locked: 0n });
  });

  it('refuses to return a deposit whose chain names no sender (Bitcoin), changing nothing', async () => {
    const who = await w.member('no-sender@return.test');
    const d = await sent(who, 10n);
    await delivered(d.txid, d.address, 'nordwind', originatorRecord(d.from, false));
    await pool().query(`update deposits set created_at = now() - interval '11 minutes' where id = $1`, [
      d.id,
    ]);
    await w.mine(CONFIRMATIONS);
    // What a Bitcoin deposit is: its inputs name no single sender.
    await pool().query('update deposits set from_address = null where id = $1', [d.id]);
    const refused = await decide(compliance, d.id, 'return', 'No originator information');
    expect([refused.statusCode, refused.json()]).toEqual([
      422,
      { errors: ['admin.travel_rule.sender_unknown'] },
    ]);
    expect(await deposit(d.id)).toMatchObject({
      state: 'submitted',
      travel_rule_status: 'held',
      credited: false,
    });
    const made = await pool().query(
      'select count(*)::int as n from withdrawals where travel_rule_return_of = $1',
      [d.id],
    );
    expect(made.rows[0].n).toBe(0);
    expect(w.balance(who, 'trx')).toEqual({ balance: 0n, locked: 0n });
    const trail = await pool().query(
      `select count(*)::int as n from staff_actions where action = 'deposit.travel_rule.return' and after->>'deposit' = $1`,
      [String(d.id)],
    );
    expect(trail.rows[0].n).toBe(0);
  });

  it('gives a return that never leaves back to external, never to the customer, whichever path releases it', async () => {
    const who = await w.member('undone@return.test');
    const d = await sent(who, 9n);
    await delivered(d.txid, d.address, 'alpenkrypto', originatorRecord(d.from, false));
    await pool().query(`update deposits set created_at = now() - interval '11 minutes' where id = $1`, [
      d.id,
    ]);
    await w.mine(CONFIRMATIONS);
    // Half an hour on, on the app's clock: the decision is stamped with its time, not the database's.
    w.t.clock.advance(30 * 60_000);
    await stepUp(w.t, compliance);
    const before = w.t.clock.now();
    const returned = await decide(compliance, d.id, 'return', 'No originator information');
    expect(returned.statusCode).toBe(200);
    const decidedAt = new Date(returned.json().decided_at).getTime();
    expect(decidedAt).toBeGreaterThanOrEqual(before);
    expect(decidedAt).toBeLessThanOrEqual(w.t.clock.now());
    const wid = returned.json().return.withdrawal_id as number;
    expect(w.balance(who, 'trx')).toEqual({ balance: 0n, locked: 9n * TRX });
    // Cancelled before it was sent, and released as every path releases a hold (no path names the destination).
    const { releaseHold, setState } = await import('../../src/modules/wallet/withdrawals.ts');
    expect(await setState(pool(), wid, 'canceled')).toBe(true);
    await releaseHold({ core: w.t.deps.core, db: pool() }, wid);
    await releaseHold({ core: w.t.deps.core, db: pool() }, wid);
    expect(w.balance(who, 'trx')).toEqual({ balance: 0n, locked: 0n });
    await w.t.deps.core.sequencer.drain?.();
    const postings = await pool().query(
      `select account, trim_scale(amount)::text as amount from ledger_postings where ref = $1 order by account`,
      [`withdraw-release:${wid}`],
    );
    expect(postings.rows).toEqual([
      { account: 'external', amount: '9' },
      { account: `u:${who.id}:locked`, amount: '-9' },
    ]);
  });
});
