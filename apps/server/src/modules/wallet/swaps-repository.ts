import type { SwapItem } from '@exchange/shared';
import type pg from 'pg';
import type { Keyset } from '../../db/keyset.ts';
import type { Tx } from '../../db/pool.ts';

/** The wallet's SQL on swaps (`swaps`, and the currencies' swap fee). */
type Db = pg.Pool | Tx;

/** Swap rows in the swap history's columns (docs/wallet.md#data Swap item). */
const SWAP_SELECT = `select id, created_at, trim_scale(amount)::text as price, from_currency as ask_currency,
  trim_scale(total)::text as total, to_currency as currency, trim_scale(fee)::text as fee, state from swaps`;

/** A `SWAP_SELECT` row: the wire shape but for its bigint id (as text) and its time. */
export type SwapRow = Omit<SwapItem, 'id' | 'created_at'> & { id: string; created_at: Date };

/** The currency's swap fee as an exact decimal fraction (`0.001` is 0.1 %); undefined for an unknown currency. */
export async function swapFeeText(db: Db, currency: string): Promise<string | undefined> {
  return (
    await db.query<{ fee: string }>(
      'select trim_scale(swap_fee)::text as fee from currencies where id = $1',
      [currency],
    )
  ).rows[0]?.fee;
}

/** A swap to record (amounts exact decimals). */
export interface NewSwap {
  userId: string;
  from: string;
  to: string;
  amount: string;
  price: string;
  total: string;
  fee: string;
  state: 'completed' | 'rejected';
  reason: string | null;
  quoteHash: string;
}

/**
 * Records a swap, once per quote.
 * @returns whether it was recorded (false: its quote was used already).
 */
export async function insertSwap(db: Db, s: NewSwap): Promise<boolean> {
  const recorded = await db.query<{ id: string }>(
    `insert into swaps (user_id, from_currency, to_currency, amount, price, total, fee, state, reason, quote_hash)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) on conflict (quote_hash) do nothing returning id`,
    [s.userId, s.from, s.to, s.amount, s.price, s.total, s.fee, s.state, s.reason, s.quoteHash],
  );
  return recorded.rowCount === 1;
}

/** The swap of the quote whose hash is `quoteHash`, or undefined. */
export async function swapByQuoteHash(db: Db, quoteHash: string): Promise<SwapRow | undefined> {
  return (await db.query<SwapRow>(`${SWAP_SELECT} where quote_hash = $1`, [quoteHash])).rows[0];
}

/** What the swap history is filtered by; null leaves a filter out. */
export interface SwapFilters {
  userId: string;
  state: string | null;
  /** Unix seconds. */
  timeFrom: number | null;
  timeTo: number | null;
}

/** A page of the user's swaps, newest first, and how many match in all. */
export async function swapsPage(
  db: Db,
  f: SwapFilters,
  limit: number,
  offset: number,
): Promise<{ total: number; rows: SwapRow[] }> {
  const where = `where user_id = $1 and ($2::text is null or state = $2)
    and ($3::bigint is null or created_at >= to_timestamp($3)) and ($4::bigint is null or created_at <= to_timestamp($4))`;
  const params = [f.userId, f.state, f.timeFrom, f.timeTo];
  const [rows, count] = await Promise.all([
    db.query<SwapRow>(`${SWAP_SELECT} ${where} order by id desc limit $5 offset $6`, [
      ...params,
      limit,
      offset,
    ]),
    db.query<{ total: number }>(`select count(*)::int as total from swaps ${where}`, params),
  ]);
  const counted = count.rows[0];
  if (!counted) throw new Error('the swaps count returned no row');
  return { total: counted.total, rows: rows.rows };
}

/** A {@link Keyset} page of all the user's swaps, oldest first. */
export async function swapRowsAfter(db: Db, userId: string, page: Keyset): Promise<SwapRow[]> {
  return (
    await db.query<SwapRow>(
      `${SWAP_SELECT} where user_id = $1 and id > $2 and id <= $3 order by id limit $4`,
      [userId, page.after, page.upTo, page.limit],
    )
  ).rows;
}
