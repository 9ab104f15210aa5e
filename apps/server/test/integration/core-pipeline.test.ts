import { toUnits } from '@exchange/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../src/core/audit.ts';
import { type ActiveCore, startCore } from '../../src/core/index.ts';
import { engineHash } from '../../src/core/journal/snapshots.ts';
import { plainUser } from '../support/core.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

let db: TestDatabase;
let core: ActiveCore;
let alice: number;
let bob: number;

// ethbtc: price ticks of 0.00001 BTC, volume steps of 0.001 ETH.
const price = (btc: string) => toUnits(btc, 5);

beforeAll(async () => {
  db = await createTestDatabase();
  alice = await plainUser(db.pool, 'alice@pipeline.test');
  bob = await plainUser(db.pool, 'bob@pipeline.test');
  // Every commit takes a while (a deferred trigger runs at COMMIT, before it is durable), so the next batch is
  // surely applied and prepared while the previous one is still uncommitted.
  await db.ownerPool.query(`create function slow_commit() returns trigger language plpgsql as
    $$ begin perform pg_sleep(0.01); return null; end $$`);
  await db.ownerPool.query(`create constraint trigger slow_commit after update on engine_state
    deferrable initially deferred for each row execute function slow_commit()`);
  // One command per batch: every command below is its own transaction, and the next one is prepared while the
  // previous one commits.
  core = await startCore(db.pool, { maxBatch: 1 });
  await core.sequencer.submit({
    type: 'Credit',
    user: alice,
    currency: 'eth',
    amount: 10n ** 20n,
    kind: 'deposit',
  });
  await core.sequencer.submit({
    type: 'Credit',
    user: bob,
    currency: 'btc',
    amount: 10n ** 9n,
    kind: 'deposit',
  });
});
afterAll(() => db.drop());

describe('batches prepared while the previous one commits', () => {
  it('fills and cancels orders the batch before opened, in commit order, with the ledger balanced', async () => {
    const from = core.sequencer.committedSeq;
    const committed: number[] = [];
    core.sequencer.onCommitted((batch) => committed.push(batch.seq));
    // Sent at once, not awaited one by one, one command per batch: each buy fills, and each cancel-all cancels,
    // the order the batch just before opened, applied while that batch may still be committing.
    const sell = () =>
      core.sequencer.submit({
        type: 'PlaceOrder',
        user: alice,
        market: 'ethbtc',
        side: 'sell',
        ordType: 'limit',
        price: price('0.05'),
        volume: 1000n,
      });
    const sells: ReturnType<typeof sell>[] = [];
    const others: Promise<{ ok: boolean }>[] = [];
    for (let i = 0; i < 20; i++) {
      sells.push(sell());
      others.push(
        i < 10
          ? core.sequencer.submit({
              type: 'PlaceOrder',
              user: bob,
              market: 'ethbtc',
              side: 'buy',
              ordType: 'market',
              volume: 1000n,
            })
          : core.sequencer.submit({ type: 'CancelAll', user: alice }),
      );
    }
    const placed = await Promise.all(sells);
    expect((await Promise.all(others)).every((r) => r.ok)).toBe(true);
    const ids = placed.map((r) => r.orderId);
    const states = await db.pool.query(
      'select id::int, state, trim_scale(remaining_volume)::text as left from orders where id = any($1) order by id',
      [ids],
    );
    expect(states.rows.map((r) => r.state)).toEqual([...Array(10).fill('done'), ...Array(10).fill('cancel')]);
    expect(states.rows.slice(0, 10).every((r) => r.left === '0')).toBe(true);
    expect((await db.pool.query('select count(*)::int as n from trades')).rows[0].n).toBe(10);
    expect(committed).toEqual(Array.from({ length: 40 }, (_, i) => from + i + 1));
    expect((await db.pool.query('select batch_seq::int from engine_state')).rows[0].batch_seq).toBe(
      from + 40,
    );
    expect(await auditLedger(db.pool)).toEqual([]);
  });

  it('restarts from the database into the same state', async () => {
    await core.sequencer.drain();
    const restarted = await startCore(db.pool);
    // The whole engine state (balances, system accounts, open orders, last prices, holds, counters), compared as
    // the canonical text the journal's snapshots hash, so a difference names itself.
    expect(engineHash(restarted.sequencer.state).state).toBe(engineHash(core.sequencer.state).state);
    expect(restarted.sequencer.state.balance(alice, 'eth').balance).toBeGreaterThan(0n);
    expect(restarted.sequencer.committedSeq).toBe(core.sequencer.committedSeq);
  });

  it('stores client command ids with any characters as they were sent', async () => {
    const refs = ['a"b', 'c\\d', 'e,f{g}', 'NULL', ' space ', 'ü€'];
    await Promise.all(
      refs.map((ref) => core.sequencer.submit({ type: 'CancelAll', user: alice }, `order:${alice}:${ref}`)),
    );
    const stored = await db.pool.query('select ref from client_commands where ref like $1 order by ref', [
      `order:${alice}:%`,
    ]);
    expect(stored.rows.map((r) => r.ref).sort()).toEqual(refs.map((r) => `order:${alice}:${r}`).sort());
  });
});
