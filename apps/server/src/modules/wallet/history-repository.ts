import type { WalletHistoryItem } from '@exchange/shared';
import type pg from 'pg';
import type { Keyset } from '../../db/keyset.ts';
import type { Tx } from '../../db/pool.ts';

/** The wallet's SQL on the customer's history lists: deposits, withdrawals and adjustments. */
type Db = pg.Pool | Tx;

/** The three account history lists. */
export type Kind = 'deposits' | 'withdrawals' | 'adjustments';

/** A row of the SELECTs below: the wire item before ids, dates and confirmations are shaped. */
export type HistoryRow = Omit<
  WalletHistoryItem,
  'id' | 'tid' | 'confirmations' | 'created_at' | 'updated_at'
> & {
  id: string;
  block_height: string | null;
  /** Deposits: where it stands under the travel rule (migration 0049), or null. */
  travel_rule_status?: string | null;
  created_at: Date;
  updated_at: Date;
};

/** The rows of each list as WalletHistoryItem columns. */
const SELECT: Record<Kind, string> = {
  deposits: `select id, currency_id as currency, blockchain_key, trim_scale(amount)::text as amount,
      trim_scale(fee)::text as fee, state, txid,
      case when internal_withdrawal_id is null then txid end as blockchain_txid, address as rid,
      case when internal_withdrawal_id is null then 'external' else 'internal' end as transaction_type,
      block_height, travel_rule_status, created_at, updated_at from deposits`,
  withdrawals: `select id, currency_id as currency, blockchain_key, trim_scale(amount)::text as amount,
      trim_scale(fee)::text as fee, state, txid, txid as blockchain_txid, rid,
      case when internal_user_id is null then 'external' else 'internal' end as transaction_type,
      block_height, note, created_at, updated_at from withdrawals`,
  // A staff proposal is not the customer's business until a second staff member has approved it.
  adjustments: `select id, currency_id as currency, null as blockchain_key, trim_scale(amount)::text as amount,
      '0' as fee, state, null as txid, null as blockchain_txid, null as rid, 'adjustment' as transaction_type,
      null as block_height, created_at, updated_at
      from (select * from adjustments where state <> 'proposed') adjustments`,
};

/** What a history list is filtered by; null leaves a filter out. */
export interface HistoryFilters {
  userId: string;
  states: readonly string[] | null;
  currency: string | null;
  /** Unix seconds. */
  timeFrom: number | null;
  timeTo: number | null;
}

/** A page of the user's deposits, withdrawals or adjustments, newest first, and how many match in all. */
export async function historyPage(
  db: Db,
  kind: Kind,
  f: HistoryFilters,
  limit: number,
  offset: number,
): Promise<{ total: number; rows: HistoryRow[] }> {
  const where = `where user_id = $1 and ($2::text[] is null or state = any($2)) and ($3::text is null or currency_id = $3)
    and ($4::bigint is null or created_at >= to_timestamp($4)) and ($5::bigint is null or created_at <= to_timestamp($5))`;
  const params = [f.userId, f.states, f.currency, f.timeFrom, f.timeTo];
  const table = kind;
  const [rows, count] = await Promise.all([
    db.query<HistoryRow>(`${SELECT[kind]} ${where} order by id desc limit $6 offset $7`, [
      ...params,
      limit,
      offset,
    ]),
    db.query<{ total: number }>(`select count(*)::int as total from ${table} ${where}`, params),
  ]);
  const counted = count.rows[0];
  if (!counted) throw new Error(`the ${kind} count returned no row`);
  return { total: counted.total, rows: rows.rows };
}

/** A {@link Keyset} page of all the user's rows of `kind`, oldest first. */
export async function historyRowsAfter(
  db: Db,
  kind: Kind,
  userId: string,
  page: Keyset,
): Promise<HistoryRow[]> {
  return (
    await db.query<HistoryRow>(
      `${SELECT[kind]} where user_id = $1 and id > $2 and id <= $3 order by id limit $4`,
      [userId, page.after, page.upTo, page.limit],
    )
  ).rows;
}

/** The row `id` of `kind`, whoever owns it, or undefined. */
export async function historyRow(db: Db, kind: Kind, id: number): Promise<HistoryRow | undefined> {
  return (await db.query<HistoryRow>(`${SELECT[kind]} where id = $1`, [id])).rows[0];
}

/** The user's newest deposit with the transaction id `txid`, or undefined. */
export async function depositRowByTxid(
  db: Db,
  userId: string,
  txid: string,
): Promise<HistoryRow | undefined> {
  return (
    await db.query<HistoryRow>(
      `${SELECT.deposits} where user_id = $1 and txid = $2 order by id desc limit 1`,
      [userId, txid],
    )
  ).rows[0];
}

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
