import type { TransactionItem, TransactionsQuery } from '@exchange/shared';
import type pg from 'pg';
import { depositConfirmations, type Page, statesFor } from './history.ts';
import { transactionsPage } from './history-repository.ts';

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
  const direction = q.order_by === 'asc' ? 'asc' : 'desc';
  const { total, rows } = await transactionsPage(
    db,
    {
      userId,
      currency: q.currency ?? null,
      txid: q.txid ?? null,
      timeFrom: q.time_from ?? null,
      timeTo: q.time_to ?? null,
      depositStates: statesFor('deposits', q.deposit_state),
      withdrawStates: statesFor('withdrawals', q.withdraw_state),
    },
    direction,
    q.limit,
    (q.page - 1) * q.limit,
  );
  return {
    total,
    items: rows.map((r) => {
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
