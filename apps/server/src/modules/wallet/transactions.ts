import type { TransactionItem, TransactionsQuery } from '@exchange/shared';
import type pg from 'pg';
import { depositConfirmations, type Page, statesFor } from './history.ts';

const COLUMNS = `blockchain_key, trim_scale(amount)::text as amount, trim_scale(fee)::text as fee, txid, state,
  created_at, updated_at, currency_id as currency, id`;

/**
 * The user's deposits and withdrawals in one list, newest first unless `order_by=asc`: Peatio's filters (currency,
 * dates, the deposit and withdrawal state filters of the history lists, txid) and its paging.
 */
export async function listTransactions(
  db: pg.Pool,
  userId: string,
  q: TransactionsQuery,
  confirmations: (network: string) => number,
  latestHeight: (network: string) => number | undefined,
): Promise<Page<TransactionItem>> {
  const filters = `user_id = $1 and ($2::text is null or currency_id = $2) and ($3::text is null or txid = $3)
    and ($4::bigint is null or created_at >= to_timestamp($4)) and ($5::bigint is null or created_at <= to_timestamp($5))`;
  const params = [
    userId,
    q.currency ?? null,
    q.txid ?? null,
    q.time_from ?? null,
    q.time_to ?? null,
    statesFor('deposits', q.deposit_state),
    statesFor('withdrawals', q.withdraw_state),
  ];
  const union = `select 'Deposit' as type, address, null::text as note, block_height, ${COLUMNS}
      from deposits where ${filters} and ($6::text[] is null or state = any($6))
    union all
    select 'Withdraw' as type, rid as address, note, null::bigint as block_height, ${COLUMNS}
      from withdrawals where ${filters} and ($7::text[] is null or state = any($7))`;
  const direction = q.order_by === 'asc' ? 'asc' : 'desc';
  const [rows, count] = await Promise.all([
    db.query(
      `select * from (${union}) t order by created_at ${direction}, type, id ${direction} limit $8 offset $9`,
      [...params, q.limit, (q.page - 1) * q.limit],
    ),
    db.query(`select count(*)::int as total from (${union}) t`, params),
  ]);
  return {
    total: count.rows[0].total,
    items: rows.rows.map((r) => {
      const item: TransactionItem = {
        type: r.type,
        id: Number(r.id),
        currency: r.currency,
        blockchain_key: r.blockchain_key,
        address: r.address,
        amount: r.amount,
        fee: r.fee,
        txid: r.txid,
        state: r.state,
        note: r.note,
        created_at: r.created_at.toISOString(),
        updated_at: r.updated_at.toISOString(),
      };
      const seen = depositConfirmations(r.blockchain_key, r.block_height, confirmations, latestHeight);
      if (seen !== undefined) item.confirmations = seen;
      return item;
    }),
  };
}
