import type { SwapItem } from '@exchange/shared';
import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';

/** The wallet's SQL on swaps (`swaps`, and the currencies' swap fee). */
type Db = pg.Pool | Tx;

/** Swap rows in the swap history's columns (docs/wallet.md#data Swap item). */
export const SWAP_SELECT = `select id, created_at, trim_scale(amount)::text as price, from_currency as ask_currency,
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
  const recorded = await db.query(
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
