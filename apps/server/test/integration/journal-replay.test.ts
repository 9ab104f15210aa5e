import type { Command } from '@exchange/engine';
import fc from 'fast-check';
import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../src/core/audit.ts';
import { startCore } from '../../src/core/index.ts';
import { decodeBatch } from '../../src/core/journal/codec.ts';
import { readJournal } from '../../src/core/journal/journal.ts';
import { engineHash } from '../../src/core/journal/snapshots.ts';
import { journalFailures, verifyJournal } from '../../src/core/journal/verify.ts';
import { Units } from '../../src/core/persistence.ts';
import { Projector } from '../../src/core/projector.ts';
import { applyAll, loadCore } from '../../src/core/recovery.ts';
import type { Submitted } from '../../src/core/sequencer.ts';
import { plainUser } from '../support/core.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

/** Users by index (0..3); the test maps them to the database's ids. */
const who = fc.integer({ min: 0, max: 3 });
const currency = fc.constantFrom('btc', 'eth', 'usdt');
const units = fc.integer({ min: 1, max: 5_000 }).map((n) => BigInt(n) * 10n ** 5n);
const volume = fc.integer({ min: 1, max: 30 }).map(BigInt);
const withdrawal = fc.constantFrom('w1', 'w2', 'w3');
const ppm = fc.bigInt({ min: 0n, max: 20_000n });

/** A command of every kind the server issues, on the seeded markets, with user indexes to map. */
type Draft = Omit<Submitted, 'user' | 'from' | 'to'> & {
  user?: number;
  from?: number | string;
  to?: number | string;
};
const draft: fc.Arbitrary<Draft> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc
      .record({
        user: who,
        market: fc.constantFrom('ethbtc', 'btcusdt'),
        side: fc.constantFrom('buy' as const, 'sell' as const),
        ordType: fc.constantFrom(
          'limit' as const,
          'limit' as const,
          'market' as const,
          'stop_loss_limit' as const,
        ),
        tick: fc.integer({ min: 0, max: 6 }),
        volume,
      })
      .map(({ tick, ...o }) => {
        const price = o.market === 'ethbtc' ? 3_500n + BigInt(tick) * 10n : 650_000n + BigInt(tick) * 100n;
        const stop = o.ordType === 'stop_loss_limit';
        return {
          type: 'PlaceOrder' as const,
          ...o,
          volume: o.market === 'ethbtc' ? o.volume * 100n : o.volume * 1_000n,
          ...(o.ordType === 'market' ? {} : { price }),
          ...(stop ? { stopPrice: price } : {}),
        };
      }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      type: fc.constant('CancelOrder' as const),
      user: who,
      orderId: fc.integer({ min: 1, max: 80 }),
    }),
  },
  fc.record({ type: fc.constant('CancelAll' as const), user: who }),
  fc.record({
    type: fc.constant('Credit' as const),
    user: who,
    currency,
    amount: units,
    kind: fc.constant('deposit' as const),
  }),
  fc.record({
    type: fc.constant('HoldWithdrawal' as const),
    user: who,
    currency,
    amount: units,
    withdrawalId: withdrawal,
  }),
  fc.record({
    type: fc.constant('SettleWithdrawal' as const),
    withdrawalId: withdrawal,
    fee: fc.bigInt({ min: 0n, max: 1000n }),
  }),
  fc.record({ type: fc.constant('ReleaseWithdrawal' as const), withdrawalId: withdrawal }),
  fc.record({ type: fc.constant('InternalTransfer' as const), from: who, to: who, currency, amount: units }),
  fc.record({
    type: fc.constant('CardTopUp' as const),
    user: who,
    amount: units,
    fee: fc.bigInt({ min: 0n, max: 1000n }),
  }),
  fc.record({ type: fc.constant('CardFee' as const), user: who, amount: units }),
  fc.record({ type: fc.constant('FundLiquidity' as const), currency, amount: units }),
  fc.record({
    type: fc.constant('Swap' as const),
    user: who,
    from: fc.constantFrom('btc', 'usdt'),
    to: fc.constantFrom('eth', 'usdt'),
    amount: units,
    mode: fc.oneof(
      fc.constant('book' as const),
      fc.record({ price: fc.bigInt({ min: 1n, max: 10n ** 9n }) }),
    ),
    feePpm: ppm,
  }),
  fc.record({
    type: fc.constant('SetFeeRule' as const),
    rule: fc.record({ market: fc.constantFrom('ethbtc', 'btcusdt'), maker: ppm, taker: ppm }),
  }),
);

/** Every table the projector writes, with nothing that depends on when it was written. */
async function projectedTables(pool: pg.Pool) {
  const q = async (sql: string) => (await pool.query(sql)).rows;
  return {
    orders: await q(`select id, uuid, user_id, market_id, side, ord_type, price::text, stop_price::text,
      origin_volume::text, remaining_volume::text, executed_volume::text, locked::text, funds_received::text,
      funds_spent::text, trades_count, state, maker_fee::text, taker_fee::text, seq, triggered_at, created_at,
      updated_at from orders order by id`),
    trades: await q('select * from trades order by id'),
    balances: await q('select user_id, currency_id, balance::text, locked::text from balances order by 1, 2'),
    system: await q('select account, currency_id, amount::text from system_balances order by 1, 2'),
    ledger: await q(`select batch_seq, command_seq, account, currency_id, amount::text, kind, ref, created_at
      from ledger_postings where command_seq is not null order by command_seq, kind, ref, account, currency_id`),
    holds: await q(
      'select withdrawal_id, user_id, currency_id, amount::text from withdrawal_holds order by 1',
    ),
    refs: await q('select ref, batch_seq, ok, code, order_id from client_commands order by ref'),
    fees: await q(`select market_id, "group", maker::text, taker::text from trading_fees order by 1, 2`),
  };
}

const databases: TestDatabase[] = [];
afterAll(async () => {
  for (const db of databases) await db.drop();
});

describe('core verify', () => {
  it('proves a journal, and names a changed balance, a changed posting and a changed snapshot', async () => {
    const db = await createTestDatabase();
    databases.push(db);
    const [a, b] = [await plainUser(db.pool, 'va@journal.test'), await plainUser(db.pool, 'vb@journal.test')];
    const core = await startCore(db.pool, { snapshotEvery: { commands: 5, ms: 60_000 } });
    const submit = (c: Submitted) => core.sequencer.submit(c);
    await submit({ type: 'Credit', user: a, currency: 'btc', amount: 10n ** 8n, kind: 'deposit' });
    await submit({ type: 'Credit', user: b, currency: 'eth', amount: 10n ** 19n, kind: 'deposit' });
    for (let i = 0; i < 6; i++) {
      await submit({
        type: 'PlaceOrder',
        user: b,
        market: 'ethbtc',
        side: 'sell',
        ordType: 'limit',
        price: 3500n,
        volume: 100n,
      });
      await submit({
        type: 'PlaceOrder',
        user: a,
        market: 'ethbtc',
        side: 'buy',
        ordType: 'limit',
        price: 3500n,
        volume: 50n,
      });
    }
    await core.sequencer.drain();
    await core.sequencer.tables.stop(new Error('done'));
    const clean = await verifyJournal(db.pool);
    expect(journalFailures(clean)).toEqual([]);
    expect(clean.snapshots.length).toBeGreaterThan(0);
    expect(clean.ledger.commands).toBe(14);

    // Someone changes a balance in the tables behind the core's back.
    await db.ownerPool.query(
      `update balances set balance = balance + 1 where user_id = $1 and currency_id = 'btc'`,
      [a],
    );
    expect(journalFailures(await verifyJournal(db.pool))).toEqual([
      expect.stringMatching(/^journal: the tables at batch \d+ differ from the replay/),
    ]);
    await db.ownerPool.query(
      `update balances set balance = balance - 1 where user_id = $1 and currency_id = 'btc'`,
      [a],
    );
    // ... a posting of the ledger ...
    await db.ownerPool.query(
      `update ledger_postings set amount = amount * 2 where ctid = (select ctid from ledger_postings where kind = 'trade' limit 1)`,
    );
    expect(journalFailures(await verifyJournal(db.pool))).toEqual([
      expect.stringMatching(/^journal: command \d+ \(PlaceOrder\): ledger /),
    ]);
    // ... or a snapshot the core stored.
    await db.ownerPool.query(
      `update core_snapshots set hash = repeat('0', 64) where seq = (select max(seq) from core_snapshots)`,
    );
    expect((await verifyJournal(db.pool)).snapshots.some((c) => !c.ok)).toBe(true);
  });
});

describe('the journal as the source of truth', () => {
  it('replays to the live state after random crashes, and projects the same tables as a projection from scratch', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(draft, { minLength: 30, maxLength: 90 }),
        // Up to three crashes, each at a point of the stream (in hundredths of its length).
        fc.uniqueArray(fc.integer({ min: 1, max: 99 }), { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 8 }),
        // The from-scratch projection's transactions: at most this many commands each (one for the whole journal,
        // or many, each built while the one before it is written).
        fc.constantFrom(5, 20_000),
        async (drafts, crashAt, unprojected, perTransaction) => {
          const db = await createTestDatabase();
          databases.push(db);
          const ids: number[] = [];
          for (let i = 0; i < 4; i++) ids.push(await plainUser(db.pool, `replay${i}@journal.test`));
          const funding: Submitted[] = ids.flatMap((user) =>
            (['btc', 'eth', 'usdt'] as const).map((c) => ({
              type: 'Credit' as const,
              user,
              currency: c,
              amount: 10n ** 14n,
              kind: 'deposit' as const,
            })),
          );
          const stream: Submitted[] = [
            ...funding,
            ...drafts.map((d) => {
              const user = (i: unknown) => (typeof i === 'number' ? (ids[i] as number) : i);
              return {
                ...d,
                ...(d.user === undefined ? {} : { user: user(d.user) }),
                ...(d.type === 'InternalTransfer' ? { from: user(d.from), to: user(d.to) } : {}),
              } as Submitted;
            }),
          ];
          let core = await startCore(db.pool);
          const cuts = [
            ...new Set(
              crashAt.map((p) => funding.length + Math.max(1, Math.floor((p * drafts.length) / 100))),
            ),
          ]
            .filter((c) => c < stream.length)
            .sort((a, b) => a - b);
          let from = 0;
          for (const cut of [...cuts, stream.length]) {
            // The last few commands before a crash reach the journal only: the projector is stopped first.
            const journalOnly = cut === stream.length ? 0 : Math.min(unprojected, cut - from);
            const send = (part: Submitted[]) =>
              Promise.all(
                part.map((c, i) => core.sequencer.submit(c, `r:${from}:${i}:${c.type}`, { ack: 'journal' })),
              );
            await send(stream.slice(from, cut - journalOnly));
            if (cut === stream.length) break;
            await core.sequencer.tables.stop(new Error('simulated crash'));
            await send(stream.slice(cut - journalOnly, cut));
            const live = engineHash(core.sequencer.state).hash;
            // The crash: the next core starts from the tables (or a snapshot) and the journal after them.
            core = await startCore(db.pool);
            const after = engineHash(core.sequencer.state);
            expect(after.hash).toBe(live);
            expect(core.sequencer.replayMismatches).toBe(0);
            from = cut;
          }
          await core.sequencer.drain();
          // The ledger balances per command, and per cause within it; every balance equals its postings. (The
          // card rules are left out: these top-ups come without the card module's top-up rows.)
          expect((await auditLedger(db.pool)).filter((f) => !f.rule.startsWith('card'))).toEqual([]);

          // A projection from scratch: the whole journal applied to a fresh database's engine, projected anew.
          const fresh = await createTestDatabase();
          databases.push(fresh);
          for (let i = 0; i < 4; i++)
            expect(await plainUser(fresh.pool, `replay${i}@journal.test`)).toBe(ids[i]);
          const freshUnits = new Units(new Map(), new Map());
          const { engine, position } = await loadCore(fresh.pool, freshUnits, { snapshots: false });
          const projector = new Projector(
            fresh.pool,
            freshUnits,
            () => position.term,
            0,
            (err) => {
              throw err;
            },
            perTransaction,
          );
          let transactions = 0;
          projector.onTimed(() => transactions++);
          for (const row of await readJournal(db.pool, 0)) {
            const { commands } = decodeBatch(row.body);
            const results = applyAll(engine, freshUnits, commands as Command[]);
            projector.add({ seq: row.seq, firstCommand: row.firstCommand, commands, results });
          }
          await projector.whenProjected(core.sequencer.committedSeq);
          expect(engineHash(engine).hash).toBe(engineHash(core.sequencer.state).hash);
          expect(await projectedTables(fresh.pool)).toEqual(await projectedTables(db.pool));
          // Small transactions: every one after the first was built while the one before it was written.
          if (perTransaction < 20_000) {
            expect(transactions).toBeGreaterThan(2);
            expect(projector.builtAhead).toBe(transactions - 1);
          }
          // The check `core verify` makes, from the first snapshot: the same.
          const report = await verifyJournal(db.pool);
          expect(journalFailures(report)).toEqual([]);
          expect(report.commands).toBeGreaterThan(0);
          await core.sequencer.tables.stop(new Error('done'));
        },
      ),
      { seed: 2811, numRuns: 6, endOnFailure: true },
    );
  }, 180_000);
});
