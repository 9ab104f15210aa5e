import { toUnits } from '@exchange/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLedger } from '../../src/core/audit.ts';
import { type Core, startCore } from '../../src/core/index.ts';
import { decodeBatch } from '../../src/core/journal/codec.ts';
import { readJournal } from '../../src/core/journal/journal.ts';
import type { Submitted } from '../../src/core/sequencer.ts';
import { plainUser } from '../support/core.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

let db: TestDatabase;
let core: Core;
let alice: number;
let bob: number;

// ethbtc: price ticks of 0.00001 BTC, volume steps of 0.001 ETH.
const price = (btc: string) => toUnits(btc, 5);
const eth = (n: number) => BigInt(n) * 10n ** 18n;
const btc = (n: number) => BigInt(n) * 10n ** 8n;

beforeAll(async () => {
  db = await createTestDatabase();
  alice = await plainUser(db.pool, 'alice@core.test');
  bob = await plainUser(db.pool, 'bob@core.test');
  core = await startCore(db.pool);
  await core.sequencer.submit({
    type: 'Credit',
    user: alice,
    currency: 'eth',
    amount: eth(10),
    kind: 'deposit',
  });
  await core.sequencer.submit({
    type: 'Credit',
    user: bob,
    currency: 'btc',
    amount: btc(2),
    kind: 'deposit',
  });
});
afterAll(() => db.drop());

const balance = async (user: number, currency: string) =>
  (
    await db.pool.query(
      'select trim_scale(balance)::text as balance, trim_scale(locked)::text as locked from balances where user_id = $1 and currency_id = $2',
      [user, currency],
    )
  ).rows[0];

describe('exchange core over PostgreSQL', () => {
  it('commits orders, trades and balances before answering', async () => {
    const sell = await core.sequencer.submit({
      type: 'PlaceOrder',
      user: alice,
      market: 'ethbtc',
      side: 'sell',
      ordType: 'limit',
      price: price('0.05'),
      volume: 2000n,
    });
    expect(sell.ok).toBe(true);
    expect(await balance(alice, 'eth')).toEqual({ balance: '8', locked: '2' });
    const buy = await core.sequencer.submit({
      type: 'PlaceOrder',
      user: bob,
      market: 'ethbtc',
      side: 'buy',
      ordType: 'limit',
      price: price('0.05'),
      volume: 1500n,
    });
    expect(buy.ok).toBe(true);
    const trade = (
      await db.pool.query(
        'select trim_scale(price)::text as price, trim_scale(amount)::text as amount, trim_scale(total)::text as total, taker_type from trades',
      )
    ).rows;
    expect(trade).toEqual([{ price: '0.05', amount: '1.5', total: '0.075', taker_type: 'buy' }]);
    const orders = (
      await db.pool.query(
        'select id, state, trim_scale(remaining_volume)::text as remaining from orders order by id',
      )
    ).rows;
    expect(orders.map((o) => [o.state, o.remaining])).toEqual([
      ['pending', '0.5'],
      ['done', '0'],
    ]);
    // Bob pays 0.075 BTC and receives 1.5 ETH less the taker fee (0.002); Alice gets 0.075 BTC less the maker fee (0.001).
    expect(await balance(bob, 'eth')).toEqual({ balance: '1.497', locked: '0' });
    expect(await balance(bob, 'btc')).toEqual({ balance: '1.925', locked: '0' });
    expect(await balance(alice, 'btc')).toEqual({ balance: '0.074925', locked: '0' });
    expect(await auditLedger(db.pool)).toEqual([]);
  });

  it('refuses what the engine refuses and changes nothing', async () => {
    const before = await balance(bob, 'btc');
    const tooBig = await core.sequencer.submit({
      type: 'PlaceOrder',
      user: bob,
      market: 'ethbtc',
      side: 'buy',
      ordType: 'limit',
      price: price('0.05'),
      volume: 1_000_000n,
    });
    expect(tooBig.ok).toBe(false);
    expect(tooBig.code).toBeTruthy();
    expect(await balance(bob, 'btc')).toEqual(before);
    expect(await auditLedger(db.pool)).toEqual([]);
  });

  it('takes a command with a client id once', async () => {
    const credit = {
      type: 'Credit',
      user: bob,
      currency: 'usdt',
      amount: 5_000_000n,
      kind: 'deposit',
    } as const;
    const [a, b] = await Promise.all([
      core.sequencer.submit(credit, 'dep-1'),
      core.sequencer.submit(credit, 'dep-1'),
    ]);
    const c = await core.sequencer.submit(credit, 'dep-1');
    expect([a.ok, b.ok, c.ok]).toEqual([true, true, true]);
    expect(await balance(bob, 'usdt')).toEqual({ balance: '5', locked: '0' });
  });

  it('rebuilds the same engine from the database, which then behaves exactly like the one that never stopped', async () => {
    await core.sequencer.submit({
      type: 'PlaceOrder',
      user: alice,
      market: 'ethbtc',
      side: 'sell',
      ordType: 'stop_loss_limit',
      price: price('0.04'),
      stopPrice: price('0.045'),
      volume: 1000n,
    });
    await core.sequencer.drain();
    const restarted = await startCore(db.pool);
    const original = core.sequencer.state;
    const rebuilt = restarted.sequencer.state;
    expect(rebuilt.depth('ethbtc')).toEqual(original.depth('ethbtc'));
    expect(rebuilt.openOrders(alice)).toEqual(original.openOrders(alice));
    for (const user of [alice, bob]) {
      for (const currency of ['btc', 'eth', 'usdt'])
        expect(rebuilt.balance(user, currency)).toEqual(original.balance(user, currency));
    }
    expect(rebuilt.lastPrice('ethbtc')).toEqual(original.lastPrice('ethbtc'));
    // The same next command on both gives the same result (the restarted one's write is its own test database row).
    const next = {
      type: 'PlaceOrder',
      user: bob,
      market: 'ethbtc',
      side: 'buy',
      ordType: 'limit',
      price: price('0.05'),
      volume: 500n,
      at: 1,
    } as const;
    const a = original.apply({ ...next });
    const b = rebuilt.apply({ ...next });
    expect(b).toEqual(a);
  });

  it('stops for good when a commit fails, and answers nothing as done', async () => {
    const other = await createTestDatabase();
    const user = await plainUser(other.pool, 'crash@core.test');
    let fatal: Error | undefined;
    const failing = await startCore(other.pool, {}, (err) => {
      fatal = err;
    });
    await other.ownerPool.query('alter table balances add constraint no_more check (balance < 0.5)');
    const res = failing.sequencer.submit({
      type: 'Credit',
      user,
      currency: 'btc',
      amount: btc(1),
      kind: 'deposit',
    });
    await expect(res).rejects.toThrow(/exchange core stopped/);
    expect(fatal?.message).toMatch(/exchange core stopped/);
    await expect(
      failing.sequencer.submit({ type: 'Credit', user, currency: 'btc', amount: 1n, kind: 'deposit' }),
    ).rejects.toThrow(/exchange core stopped/);
    const rows = await other.pool.query('select count(*)::int as n from balances');
    expect(rows.rows[0].n).toBe(0);
    await other.drop();
  });

  it('pauses when the database ends its connection (57P01), refuses meanwhile, then reloads and goes on', async () => {
    const other = await createTestDatabase();
    const user = await plainUser(other.pool, 'paused@core.test');
    let fatal: Error | undefined;
    const paused = await startCore(other.pool, {}, (err) => {
      fatal = err;
    });
    const credit = (amount: bigint) =>
      paused.sequencer.submit({ type: 'Credit', user, currency: 'btc', amount, kind: 'deposit' });
    expect((await credit(btc(1))).ok).toBe(true);
    const recovered = new Promise<{ seq: number; missed: boolean }>((resolve) =>
      paused.sequencer.onRecovered(resolve),
    );

    // The next batch's journal write waits on a lock inside PostgreSQL; its backend is then ended as a dying
    // server ends it. The lock also holds the reload back, so the pause can be looked at. (The app's role may only
    // append to the journal: the owner takes the lock.)
    const locker = await other.ownerPool.connect();
    await locker.query('begin');
    await locker.query('lock table core_journal in access exclusive mode');
    const lost = credit(btc(5));
    lost.catch(() => {});
    for (let waiting = 0; waiting === 0; ) {
      // Ended by the app's own role (the owner may not signal another role's backend).
      const ended = await other.pool.query(
        `select pid from pg_stat_activity, pg_terminate_backend(pid) as ended
         where datname = current_database() and wait_event_type = 'Lock' and ended`,
      );
      waiting = ended.rowCount ?? 0;
    }
    await expect(lost).rejects.toThrow(/database unavailable/);
    expect(paused.sequencer.available).toBe(false);
    await expect(credit(1n)).rejects.toThrow(/database unavailable/);

    await locker.query('rollback');
    locker.release();
    // Nothing committed unseen (the cut batch rolled back); listeners hear of it just before commands resume.
    expect(await recovered).toEqual({ seq: paused.sequencer.committedSeq, missed: false });
    await vi.waitFor(() => expect(paused.sequencer.available).toBe(true));
    expect((await credit(btc(2))).ok).toBe(true);
    // Only what committed counts: 1 + 2, not the 5 whose batch was cut off, in memory as on disk.
    expect(paused.sequencer.state.balance(user, 'btc').balance).toBe(btc(3));
    const stored = await other.pool.query('select balance::text from balances where user_id = $1', [user]);
    expect(stored.rows[0].balance).toBe('3.000000000000000000');
    expect(await auditLedger(other.pool)).toEqual([]);
    expect(fatal).toBeUndefined();
    await other.drop();
  });

  it('refuses before the engine what the journal cannot hold, and journals what it takes exactly', async () => {
    const order = {
      type: 'PlaceOrder' as const,
      user: bob,
      market: 'ethbtc',
      side: 'buy' as const,
      ordType: 'limit' as const,
      volume: 1000n,
    };
    const before = core.sequencer.committedSeq;
    await expect(core.sequencer.submit({ ...order, price: price('0.01'), user: Number.NaN })).rejects.toThrow(
      'refused before the engine: the number NaN',
    );
    await expect(core.sequencer.submit({ ...order, price: (() => 1n) as unknown as bigint })).rejects.toThrow(
      'refused before the engine: a function',
    );
    expect(core.sequencer.committedSeq).toBe(before);
    // One short form with a client id and options, one short form without, one generic (a field it does not know).
    const taken = [
      { ...order, price: price('0.01'), timeInForce: 'gtc' as const, postOnly: true },
      { type: 'CancelAll' as const, user: bob, market: 'ethbtc' },
      { ...order, price: price('0.01'), note: 'kept' },
    ];
    // In order (a client id is looked up before its command is queued).
    const results = [
      await core.sequencer.submit(taken[0] as Submitted, 'journal-exact:1'),
      await core.sequencer.submit(taken[1] as Submitted),
      await core.sequencer.submit(taken[2] as Submitted),
    ];
    const rows = await readJournal(db.pool, before);
    const journalled = rows.flatMap((row) => decodeBatch(row.body).commands);
    expect(journalled.map(({ at: _at, ...c }) => c)).toEqual([
      { ...taken[0], ref: 'journal-exact:1' },
      taken[1],
      taken[2],
    ]);
    expect(rows.map((row) => row.body).join('')).toContain('["P",0,"journal-exact:1",');
    expect(results.map((r) => r.ok)).toEqual([true, true, true]);
  });

  it('pauses when the tables cannot be written behind the journal, and keeps what the journal holds, once', async () => {
    const other = await createTestDatabase();
    const user = await plainUser(other.pool, 'projector@core.test');
    let fatal: Error | undefined;
    const paused = await startCore(other.pool, {}, (err) => {
      fatal = err;
    });
    const credit = (amount: bigint, ref?: string) =>
      paused.sequencer.submit({ type: 'Credit', user, currency: 'btc', amount, kind: 'deposit' }, ref);
    expect((await credit(btc(1))).ok).toBe(true);
    const recovered = new Promise<{ seq: number; missed: boolean }>((resolve) =>
      paused.sequencer.onRecovered(resolve),
    );
    // The journal takes the batch; the projector's write of it then waits on the balances and is ended.
    const locker = await other.pool.connect();
    await locker.query('begin');
    await locker.query('lock table balances in access exclusive mode');
    const lost = credit(btc(5), 'deposit:projector-test');
    lost.catch(() => {});
    for (let waiting = 0; waiting === 0; ) {
      const ended = await locker.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
         where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
      );
      waiting = ended.rowCount ?? 0;
    }
    // Its caller, who asked for the tables too, is told the database is away: the command is in the journal.
    await expect(lost).rejects.toThrow(/database unavailable/);
    expect(paused.sequencer.available).toBe(false);
    await locker.query('rollback');
    locker.release();
    // Published when it committed to the journal, so nothing was missed; the reload projects it from the journal.
    expect(await recovered).toEqual({ seq: paused.sequencer.committedSeq, missed: false });
    await vi.waitFor(() => expect(paused.sequencer.available).toBe(true));
    // A retry with the same client id gets the first outcome and changes nothing.
    expect((await credit(btc(5), 'deposit:projector-test')).ok).toBe(true);
    expect(paused.sequencer.state.balance(user, 'btc').balance).toBe(btc(6));
    const stored = await other.pool.query('select balance::text from balances where user_id = $1', [user]);
    expect(stored.rows[0].balance).toBe('6.000000000000000000');
    expect(await auditLedger(other.pool)).toEqual([]);
    expect(fatal).toBeUndefined();
    await other.drop();
  });
});
