import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';

/** The wallet's SQL on the customer's history lists: deposits and withdrawals. */
type Db = pg.Pool | Tx;

const TRANSACTION_COLUMNS = `blockchain_key, trim_scale(amount)::text as amount, trim_scale(fee)::text as fee, txid, state,
  created_at, updated_at, currency_id as currency, id`;

/** One deposit or withdrawal of the user's transactions list, as stored (amounts exact decimals). */
export interface TransactionRow {
  type: 'Deposit' | 'Withdraw';
  /** bigint, as text. */
  id: string;
  currency: string;
  blockchain_key: string | null;
  /** The deposit address, or the withdrawal's destination (`rid`). */
  address: string | null;
  amount: string;
  fee: string;
  txid: string | null;
  state: string;
  /** Withdrawals only. */
  note: string | null;
  /** Deposits only: the block that holds it (bigint, as text). */
  block_height: string | null;
  created_at: Date;
  updated_at: Date;
}

/** What the transactions list is filtered by; null leaves a filter out. */
export interface TransactionFilters {
  userId: string;
  currency: string | null;
  txid: string | null;
  /** Unix seconds. */
  timeFrom: number | null;
  timeTo: number | null;
  depositStates: readonly string[] | null;
  withdrawStates: readonly string[] | null;
}

/**
 * A page of the user's deposits and withdrawals in one list, by `created_at` in `direction` (then kind, then id),
 * and how many match in all.
 */
export async function transactionsPage(
  db: Db,
  f: TransactionFilters,
  direction: 'asc' | 'desc',
  limit: number,
  offset: number,
): Promise<{ total: number; rows: TransactionRow[] }> {
  const filters = `user_id = $1 and ($2::text is null or currency_id = $2) and ($3::text is null or txid = $3)
    and ($4::bigint is null or created_at >= to_timestamp($4)) and ($5::bigint is null or created_at <= to_timestamp($5))`;
  const params = [f.userId, f.currency, f.txid, f.timeFrom, f.timeTo, f.depositStates, f.withdrawStates];
  const union = `select 'Deposit' as type, address, null::text as note, block_height, ${TRANSACTION_COLUMNS}
      from deposits where ${filters} and ($6::text[] is null or state = any($6))
    union all
    select 'Withdraw' as type, rid as address, note, null::bigint as block_height, ${TRANSACTION_COLUMNS}
      from withdrawals where ${filters} and ($7::text[] is null or state = any($7))`;
  const [rows, count] = await Promise.all([
    db.query<TransactionRow>(
      `select * from (${union}) t order by created_at ${direction}, type, id ${direction} limit $8 offset $9`,
      [...params, limit, offset],
    ),
    db.query<{ total: number }>(`select count(*)::int as total from (${union}) t`, params),
  ]);
  const counted = count.rows[0];
  if (!counted) throw new Error('the transactions count returned no row');
  return { total: counted.total, rows: rows.rows };
}
