import { createHash } from 'node:crypto';
import { Engine, type EngineSnapshot } from '@exchange/engine';
import type pg from 'pg';
import { reviveBigints, stringifyTagged } from '../remote/codec.ts';

/** An engine snapshot as stored: the batch it follows, the next command's number, its text and hash. */
export interface StoredSnapshot {
  seq: number;
  nextCommand: number;
  hash: string;
  state: string;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The engine's state in one canonical text: every list in a fixed order (whatever order the engine holds it in,
 * which differs between an engine that ran and one rebuilt from the tables), every bigint as
 * `{"$n":"<decimal>"}`. Two engines in the same state give the same text, and so the same hash.
 */
export function canonicalState(snapshot: EngineSnapshot): string {
  const { config, state } = snapshot;
  const ruleKey = (r: { market?: string; level?: number }) => `${r.market ?? ''}\n${r.level ?? -1}`;
  // Objects are rebuilt with their keys in one order too: JSON keeps the order they were made in.
  return stringifyTagged({
    config: {
      currencies: [...config.currencies]
        .sort((a, b) => byText(a.id, b.id))
        .map((c) => ({ id: c.id, precision: c.precision })),
      markets: [...config.markets]
        .sort((a, b) => byText(a.id, b.id))
        .map((m) => ({
          id: m.id,
          base: m.base,
          quote: m.quote,
          pricePrecision: m.pricePrecision,
          amountPrecision: m.amountPrecision,
          minPrice: m.minPrice,
          maxPrice: m.maxPrice,
          minAmount: m.minAmount,
          state: m.state,
        })),
      fees: {
        defaultMaker: config.fees?.defaultMaker,
        defaultTaker: config.fees?.defaultTaker,
        rules: [...(config.fees?.rules ?? [])]
          .sort((a, b) => byText(ruleKey(a), ruleKey(b)))
          .map((r) => ({ market: r.market, level: r.level, maker: r.maker, taker: r.taker })),
      },
      tradingLevels: [...(config.tradingLevels ?? [])].sort((a, b) => a[0] - b[0]),
      cardCurrency: config.cardCurrency,
    },
    state: {
      nextOrderId: state.nextOrderId,
      nextTradeId: state.nextTradeId,
      nextSeq: state.nextSeq,
      balances: [...state.balances].sort((a, b) => a.user - b.user || byText(a.currency, b.currency)),
      system: [...state.system].sort(
        (a, b) => byText(a.account, b.account) || byText(a.currency, b.currency),
      ),
      lastPrices: [...state.lastPrices].sort((a, b) => byText(a.market, b.market)),
      orders: [...state.orders].sort((a, b) => a.id - b.id),
      withdrawals: [...state.withdrawals].sort((a, b) => byText(a.withdrawalId, b.withdrawalId)),
    },
  });
}

/** SHA-256 (hex) of a canonical state text. */
export function hashState(canonical: string): string {
  return createHash('sha256').update(canonical).digest('hex');
}

/** The canonical text and hash of an engine's state now. */
export function engineHash(engine: Engine): { state: string; hash: string } {
  const state = canonicalState(engine.snapshot());
  return { state, hash: hashState(state) };
}

/** An engine rebuilt from a stored snapshot's text. */
export function engineFromSnapshot(state: string): Engine {
  return Engine.restore(reviveBigints(JSON.parse(state)) as EngineSnapshot);
}

/** Stores a snapshot of `engine` taken after batch `seq` (a second one for the same batch changes nothing). */
export async function writeSnapshot(
  db: pg.Pool | pg.PoolClient,
  seq: number,
  nextCommand: number,
  taken: { state: string; hash: string },
): Promise<void> {
  await db.query(
    `insert into core_snapshots (seq, next_command, hash, state) values ($1, $2, $3, $4)
     on conflict (seq) do nothing`,
    [seq, nextCommand, taken.hash, taken.state],
  );
}

/** The newest snapshot taken at or before batch `atMost`, if any. */
export async function newestSnapshot(
  db: pg.Pool | pg.PoolClient,
  atMost: number,
): Promise<StoredSnapshot | undefined> {
  const row = (
    await db.query<{ seq: string; next_command: string; hash: string; state: string }>(
      `select seq, next_command, hash, state from core_snapshots where seq <= $1 order by seq desc limit 1`,
      [atMost],
    )
  ).rows[0];
  return row ? stored(row) : undefined;
}

/** Every snapshot's batch and hash, oldest first (without their texts). */
export async function snapshotIndex(
  db: pg.Pool | pg.PoolClient,
): Promise<{ seq: number; nextCommand: number; hash: string }[]> {
  const rows = await db.query<{ seq: string; next_command: string; hash: string }>(
    'select seq, next_command, hash from core_snapshots order by seq',
  );
  return rows.rows.map((r) => ({ seq: Number(r.seq), nextCommand: Number(r.next_command), hash: r.hash }));
}

/** One snapshot by its batch. */
export async function snapshotAt(
  db: pg.Pool | pg.PoolClient,
  seq: number,
): Promise<StoredSnapshot | undefined> {
  const row = (
    await db.query<{ seq: string; next_command: string; hash: string; state: string }>(
      'select seq, next_command, hash, state from core_snapshots where seq = $1',
      [seq],
    )
  ).rows[0];
  return row ? stored(row) : undefined;
}

function stored(row: { seq: string; next_command: string; hash: string; state: string }): StoredSnapshot {
  return { seq: Number(row.seq), nextCommand: Number(row.next_command), hash: row.hash, state: row.state };
}
