import { beforeAll, describe, expect, it } from 'vitest';
import { adminCall, asStaff, type Person, person, stepUp } from '../support/staff.ts';
import { incomingKit } from '../support/travel-rule-incoming.ts';
import { TRX, walletSuite } from '../support/wallet.ts';

/**
 * The travel rule on incoming transfers (issue 33 item 4; Regulation (EU) 2023/1113 art. 16-17): a deposit whose
 * sender the travel-rule network attributes to another provider, or for which a provider delivered a record
 * without the originator, is not credited; after the window (10 minutes here) it is held until compliance
 * releases it (credited once) or returns it (travel-rule-return.test.ts). The simulator of the network answers over
 * HTTP on the app's own server; what it knows is written into its tables, as an operator would.
 */
const w = walletSuite({ TRAVEL_RULE_INCOMING_WAIT_MINUTES: '10' });
const { sent, deposit, delivered, originatorRecord, decide, history } = incomingKit(w);
const CONFIRMATIONS = 30;
let compliance: Person;
let support: Person;

beforeAll(async () => {
  await w.t.app.listen({ port: 0, host: '127.0.0.1' });
  compliance = await person(w.t, 'officer@incoming.test', 'compliance');
  support = await person(w.t, 'support@incoming.test', 'support');
  await stepUp(w.t, compliance);
  await stepUp(w.t, support);
});

const pool = () => w.t.db.pool;
/** Credited: accepted, or already being swept to the hot wallet. */
const CREDITED = expect.stringMatching(/^(accepted|collecting|collected)$/);

/** The window ran out: the deposit was first seen 11 minutes ago and the service last asked a minute ago. */
async function windowPassed(id: number) {
  await pool().query(
    `update deposits set created_at = now() - interval '11 minutes',
       travel_rule_checked_at = now() - interval '1 minute' where id = $1`,
    [id],
  );
  await w.t.deps.wallet.tick();
}

/** The sender's address belongs to `provider` (the network's attribution), for the test's length. */
async function attributed<T>(from: string, provider: string, work: () => Promise<T>): Promise<T> {
  await pool().query(
    `insert into travel_rule_sim_addresses (blockchain_key, address, provider_id) values ('tron-sim', $1, $2)`,
    [from, provider],
  );
  try {
    return await work();
  } finally {
    await pool().query('delete from travel_rule_sim_addresses where address = $1', [from]);
  }
}

describe('incoming transfers under the travel rule', () => {
  it('credits a deposit from a sender no provider claims, as before', async () => {
    const who = await w.member('self-hosted@incoming.test');
    const d = await sent(who, 20n);
    expect(d.from).toMatch(/^T/);
    await w.mine(CONFIRMATIONS);
    expect(await deposit(d.id)).toMatchObject({
      state: CREDITED,
      credited: true,
      travel_rule_status: 'not_required',
    });
    expect(w.balance(who, 'trx')).toEqual({ balance: 20n * TRX, locked: 0n });
  });

  it("holds a provider's deposit without the originator, lists it, and credits it once when released", async () => {
    const who = await w.member('held@incoming.test');
    const d = await sent(who, 30n);
    await attributed(d.from, 'nordwind', async () => {
      await w.mine(CONFIRMATIONS);
      expect(await deposit(d.id)).toMatchObject({
        state: 'submitted',
        travel_rule_status: 'awaiting',
        credited: false,
      });
      await windowPassed(d.id);
    });
    expect(await deposit(d.id)).toMatchObject({ state: 'submitted', travel_rule_status: 'held' });
    // Later passes neither credit it nor ask again.
    await w.mine(2);
    expect(w.balance(who, 'trx')).toEqual({ balance: 0n, locked: 0n });

    const listed = await adminCall(w.t, 'GET', '/travel_rule/deposits', compliance.headers);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toContainEqual(
      expect.objectContaining({
        id: d.id,
        email: 'held@incoming.test',
        amount: '30',
        txid: d.txid,
        from_address: d.from,
        status: 'held',
        provider_id: 'nordwind',
        provider_name: 'Nordwind Digital Assets AB (fictional)',
        record: null,
      }),
    );
    // Support may neither see nor decide it; the customer has no console; nobody without a session.
    expect((await adminCall(w.t, 'GET', '/travel_rule/deposits', support.headers)).json()).toEqual({
      errors: ['admin.forbidden'],
    });
    expect((await decide(support, d.id, 'release', 'looks fine')).statusCode).toBe(403);
    expect((await decide({ ...compliance, headers: who.headers }, d.id, 'release', 'mine')).statusCode).toBe(
      403,
    );
    expect((await decide({ ...compliance, headers: {} }, d.id, 'release', 'anyone')).statusCode).toBe(401);
    expect((await decide(compliance, d.id, 'release')).json()).toEqual({ errors: ['admin.reason_required'] });
    expect((await decide(compliance, 999_999, 'release', 'no such')).statusCode).toBe(404);
    expect(w.balance(who, 'trx')).toEqual({ balance: 0n, locked: 0n });

    // Two releases at once (a double click, two officers): one wins, the other finds it no longer held.
    const [first, second] = await Promise.all([
      decide(compliance, d.id, 'release', 'Originator confirmed by Nordwind by e-mail'),
      decide(compliance, d.id, 'release', 'Originator confirmed by Nordwind by e-mail'),
    ]);
    const released = first.statusCode === 200 ? first : second;
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 422]);
    expect(released.json()).toMatchObject({ status: 'released', decided_by: compliance.email });
    expect(await deposit(d.id)).toMatchObject({ state: CREDITED, credited: true });
    expect(w.balance(who, 'trx')).toEqual({ balance: 30n * TRX, locked: 0n });
    // Once: a second release is refused, and the watcher's passes credit nothing more.
    expect((await decide(compliance, d.id, 'release', 'again')).json()).toEqual({
      errors: ['admin.travel_rule.not_held'],
    });
    await w.mine(2);
    expect(w.balance(who, 'trx')).toEqual({ balance: 30n * TRX, locked: 0n });
    const trail = (
      await pool().query(`select * from staff_actions where action = 'deposit.travel_rule.release'`)
    ).rows;
    expect(trail).toMatchObject([{ staff_id: String(compliance.id), target: expect.stringMatching(/^ID/) }]);
  });

  it('finishes a release cut off before its credit at the next pass, crediting once', async () => {
    const who = await w.member('cut-off@incoming.test');
    const d = await sent(who, 14n);
    await delivered(d.txid, d.address, 'nordwind', originatorRecord(d.from, false));
    await pool().query(`update deposits set created_at = now() - interval '11 minutes' where id = $1`, [
      d.id,
    ]);
    await w.mine(CONFIRMATIONS);
    expect((await deposit(d.id)).travel_rule_status).toBe('held');
    // What a crash right after the decision's commit leaves: released, not yet credited.
    await pool().query(
      `update deposits set travel_rule_status = 'released', travel_rule_decided_by = $2,
         travel_rule_decided_at = now(), travel_rule_note = 'cut off' where id = $1`,
      [d.id, compliance.id],
    );
    await w.mine(1);
    expect(await deposit(d.id)).toMatchObject({ state: CREDITED, credited: true });
    await w.mine(1);
    expect(w.balance(who, 'trx')).toEqual({ balance: 14n * TRX, locked: 0n });
  });

  it('credits a deposit whose originator record arrives within the window', async () => {
    const who = await w.member('record@incoming.test');
    const d = await sent(who, 15n);
    await attributed(d.from, 'vistula', async () => {
      await w.mine(CONFIRMATIONS);
      expect((await deposit(d.id)).travel_rule_status).toBe('awaiting');
      await delivered(d.txid, d.address, 'vistula', originatorRecord(d.from, true));
      // Asked again only after a while; then the record is there.
      await w.mine(1);
      expect((await deposit(d.id)).credited).toBe(false);
      await pool().query(
        `update deposits set travel_rule_checked_at = now() - interval '1 minute' where id = $1`,
        [d.id],
      );
      await w.mine(1);
    });
    const row = await deposit(d.id);
    expect(row).toMatchObject({ state: CREDITED, travel_rule_status: 'received', credited: true });
    expect(row.travel_rule).toMatchObject({
      provider_id: 'vistula',
      payload: originatorRecord(d.from, true),
    });
    expect(w.balance(who, 'trx')).toEqual({ balance: 15n * TRX, locked: 0n });
  });

  it('never lets staff decide a deposit of their own account; the database refuses it too', async () => {
    const officer = await w.member('own-deposit@incoming.test');
    const d = await sent(officer, 11n);
    await delivered(d.txid, d.address, 'nordwind', originatorRecord(d.from, false));
    await pool().query(`update deposits set created_at = now() - interval '11 minutes' where id = $1`, [
      d.id,
    ]);
    await w.mine(CONFIRMATIONS);
    const self = await asStaff(w.t, officer.id, 'compliance');
    await stepUp(w.t, self);
    const own = await decide(self, d.id, 'release', 'it is mine, I know the sender');
    expect([own.statusCode, own.json()]).toEqual([403, { errors: ['admin.user.own_account'] }]);
    await expect(
      pool().query(
        `update deposits set travel_rule_decided_by = user_id, travel_rule_status = 'released' where id = $1`,
        [d.id],
      ),
    ).rejects.toThrow(/own account/);
    expect(await deposit(d.id)).toMatchObject({ travel_rule_status: 'held', credited: false });
    const other = await decide(compliance, d.id, 'release', 'Sender confirmed by Nordwind');
    expect(other.statusCode, other.body).toBe(200);
    expect(w.balance(officer, 'trx')).toEqual({ balance: 11n * TRX, locked: 0n });
  });

  it('credits a deposit unchecked when the travel-rule service cannot be reached', async () => {
    const who = await w.member('unreached@incoming.test');
    const d = await sent(who, 13n);
    const config = w.t.deps.config.travelRule;
    const before = { protocol: config.protocol, url: config.url };
    // A travel-rule service where nothing listens.
    Object.assign(config, { protocol: 'http', url: 'http://127.0.0.1:9' });
    try {
      await w.mine(CONFIRMATIONS);
    } finally {
      Object.assign(config, before);
    }
    const row = await deposit(d.id);
    expect(row).toMatchObject({ state: CREDITED, travel_rule_status: 'unchecked', credited: true });
    expect(row.travel_rule.detail).toMatch(/ECONNREFUSED/);
    expect(w.balance(who, 'trx')).toEqual({ balance: 13n * TRX, locked: 0n });

    // Listed for compliance to follow up, under its own filter and in `all`; not among the held ones.
    const ids = async (query: string) =>
      (await adminCall(w.t, 'GET', `/travel_rule/deposits${query}`, compliance.headers))
        .json()
        .map((r: { id: number }) => r.id);
    const unchecked = await adminCall(
      w.t,
      'GET',
      '/travel_rule/deposits?state=unchecked',
      compliance.headers,
    );
    expect(unchecked.statusCode).toBe(200);
    expect(unchecked.json()).toContainEqual(
      expect.objectContaining({
        id: d.id,
        status: 'unchecked',
        email: 'unreached@incoming.test',
        amount: '13',
      }),
    );
    expect(await ids('?state=all')).toContain(d.id);
    expect(await ids('')).not.toContain(d.id);
    // Nobody else sees it: support, the customer, no session; an unknown filter is refused.
    expect(
      (await adminCall(w.t, 'GET', '/travel_rule/deposits?state=unchecked', support.headers)).statusCode,
    ).toBe(403);
    expect(
      (await adminCall(w.t, 'GET', '/travel_rule/deposits?state=unchecked', who.headers)).statusCode,
    ).toBe(403);
    expect((await adminCall(w.t, 'GET', '/travel_rule/deposits?state=unchecked', {})).statusCode).toBe(401);
    expect(
      (await adminCall(w.t, 'GET', '/travel_rule/deposits?state=sideways', compliance.headers)).statusCode,
    ).toBe(422);
    // The customer is told nothing: it was credited as usual.
    expect((await history(who)).find((i) => i.id === d.id)).toMatchObject({ message: null });
  });

  it("tells the customer a held deposit waits for the sender's information, and only the customer", async () => {
    const who = await w.member('told@incoming.test');
    const other = await w.member('nosy@incoming.test');
    const d = await sent(who, 16n);
    await attributed(d.from, 'nordwind', async () => {
      await w.mine(CONFIRMATIONS);
      expect((await history(who)).find((i) => i.id === d.id)).toMatchObject({
        state: 'submitted',
        message: 'account.deposit.travel_rule_awaiting_originator',
      });
      await windowPassed(d.id);
    });
    expect((await deposit(d.id)).travel_rule_status).toBe('held');
    const item = (await history(who)).find((i) => i.id === d.id);
    expect(item).toMatchObject({
      state: 'submitted',
      message: 'account.deposit.travel_rule_awaiting_originator',
    });
    // The deposit by its txid says the same; another customer does not see it, nor anyone without a session.
    const one = await w.t.app.inject({
      method: 'GET',
      url: `/api/v2/peatio/account/deposits/${d.txid}`,
      headers: who.headers,
    });
    expect(one.json()).toMatchObject({
      id: d.id,
      message: 'account.deposit.travel_rule_awaiting_originator',
    });
    expect((await history(other)).map((i) => i.id)).not.toContain(d.id);
    const foreign = await w.t.app.inject({
      method: 'GET',
      url: `/api/v2/peatio/account/deposits/${d.txid}`,
      headers: other.headers,
    });
    expect(foreign.statusCode).toBe(404);
    const anonymous = await w.t.app.inject({ method: 'GET', url: '/api/v2/peatio/account/deposits' });
    expect(anonymous.statusCode).toBe(401);
  });

  // Last: it moves the app's clock on.
  it("runs the wait for the originator from when the app's clock saw the deposit", async () => {
    // Half an hour ahead of the database's time: seen now, the deposit is stamped on this clock and waits.
    w.t.clock.advance(30 * 60_000);
    const who = await w.member('clock@incoming.test');
    const d = await sent(who, 17n);
    await attributed(d.from, 'nordwind', async () => {
      await w.mine(CONFIRMATIONS);
      expect(await deposit(d.id)).toMatchObject({ travel_rule_status: 'awaiting', credited: false });
      // Nine minutes on it still waits (asked again: more than a minute passed); eleven minutes on it is held.
      w.t.clock.advance(9 * 60_000);
      await w.t.deps.wallet.tick();
      expect((await deposit(d.id)).travel_rule_status).toBe('awaiting');
      w.t.clock.advance(2 * 60_000);
      await w.t.deps.wallet.tick();
      expect((await deposit(d.id)).travel_rule_status).toBe('held');
    });
    expect(w.balance(who, 'trx')).toEqual({ balance: 0n, locked: 0n });
  });
});
