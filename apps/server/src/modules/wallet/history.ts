import {
  ADJUSTMENT_STATE_FILTERS,
  DEPOSIT_STATE_FILTERS,
  DEPOSIT_TRAVEL_RULE_MESSAGES,
  type SwapItem,
  WALLET_ERRORS,
  type WalletHistoryItem,
  type WalletHistoryQuery,
  WITHDRAW_STATE_FILTERS,
} from '@exchange/shared';
import type pg from 'pg';
import type { Clock } from '../../clock.ts';
import type { Keyset } from '../../db/keyset.ts';
import { invalid } from '../../http/errors.ts';
import {
  depositRowByTxid,
  type HistoryRow,
  historyPage,
  historyRow,
  historyRowsAfter,
  type Kind,
} from './history-repository.ts';
import { type SwapRow, swapRowsAfter, swapsPage } from './swaps-repository.ts';

/** A page of a list and the number of rows in all pages (the `Total` header). */
export interface Page<T> {
  items: T[];
  total: number;
}

export type { Kind };

const FILTERS: Record<Kind, Record<string, readonly string[]>> = {
  deposits: DEPOSIT_STATE_FILTERS,
  withdrawals: WITHDRAW_STATE_FILTERS,
  adjustments: ADJUSTMENT_STATE_FILTERS,
};

/** Which states a `state` filter means (docs/wallet.md#states expansions); an unknown filter is refused. */
export function statesFor(kind: keyof typeof FILTERS, state: string | undefined): readonly string[] | null {
  if (state === undefined || state === 'all') return null;
  const states = FILTERS[kind][state];
  if (!states) throw invalid('account.history.invalid_state');
  return states;
}

/**
 * Dates in the future (past tomorrow on `clock`) are refused (docs/wallet.md#validation); the range order is
 * checked by the schema. The routes check it before a list is read.
 */
export function checkRange(q: { time_from?: number; time_to?: number }, clock: Clock): void {
  const latest = Math.floor(clock.now() / 1000) + 86_400;
  if ((q.time_from ?? 0) > latest || (q.time_to ?? 0) > latest) throw invalid(WALLET_ERRORS.invalidDateRange);
}

/** The user's deposits, withdrawals or adjustments, newest first, with the spec's filters. */
export async function listHistory(
  db: pg.Pool,
  userId: string,
  kind: Kind,
  q: WalletHistoryQuery,
  confirmations: (network: string) => number,
  latestHeight: (network: string) => number | undefined,
): Promise<Page<WalletHistoryItem>> {
  const { total, rows } = await historyPage(
    db,
    kind,
    {
      userId,
      states: statesFor(kind, q.state),
      currency: q.currency ?? null,
      timeFrom: q.time_from ?? null,
      timeTo: q.time_to ?? null,
    },
    q.limit,
    (q.page - 1) * q.limit,
  );
  return {
    total,
    items: rows.map((r) => toItem(kind, r, confirmations, latestHeight)),
  };
}

/**
 * A {@link Keyset} page of all the user's deposits, withdrawals (internal transfers included) or adjustments,
 * oldest first, in the list's shape (the data export).
 */
export async function historyAfter(
  db: pg.Pool,
  userId: string,
  kind: Kind,
  page: Keyset,
  confirmations: (network: string) => number,
  latestHeight: (network: string) => number | undefined,
): Promise<WalletHistoryItem[]> {
  const rows = await historyRowsAfter(db, kind, userId, page);
  return rows.map((r) => toItem(kind, r, confirmations, latestHeight));
}

/** One deposit, withdrawal or adjustment of the user, for the private streams. */
export async function historyItem(
  db: pg.Pool,
  kind: Kind,
  id: number,
  confirmations: (network: string) => number,
  latestHeight: (network: string) => number | undefined,
): Promise<WalletHistoryItem | null> {
  const row = await historyRow(db, kind, id);
  return row ? toItem(kind, row, confirmations, latestHeight) : null;
}

/**
 * The user's deposit with this transaction id (Peatio's `GET /account/deposits/{txid}`), the newest when one
 * transaction paid several of the user's addresses; null when the user has none (another user's is as unknown).
 */
export async function depositByTxid(
  db: pg.Pool,
  userId: string,
  txid: string,
  confirmations: (network: string) => number,
  latestHeight: (network: string) => number | undefined,
): Promise<WalletHistoryItem | null> {
  const row = await depositRowByTxid(db, userId, txid);
  return row ? toItem('deposits', row, confirmations, latestHeight) : null;
}

function toItem(
  kind: Kind,
  r: HistoryRow,
  confirmations: (network: string) => number,
  latestHeight: (network: string) => number | undefined,
): WalletHistoryItem {
  const item: WalletHistoryItem = {
    id: Number(r.id),
    currency: r.currency,
    blockchain_key: r.blockchain_key,
    amount: r.amount,
    fee: r.fee,
    state: r.state,
    txid: r.txid,
    blockchain_txid: r.blockchain_txid,
    rid: r.rid,
    tid: `${kind[0]?.toUpperCase()}${r.id}`,
    transaction_type: r.transaction_type,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
  if (kind === 'withdrawals') item.note = r.note ?? null;
  if (kind === 'deposits') {
    item.message = depositMessage(r.travel_rule_status ?? null);
    const seen = depositConfirmations(r.blockchain_key, r.block_height, confirmations, latestHeight);
    if (seen !== undefined) item.confirmations = seen;
  }
  return item;
}

/**
 * What the customer is told of a deposit under the travel rule: it waits for the sender's information (the
 * sending provider has not delivered the originator's data; not credited meanwhile, compliance follows it up), or
 * it went back to the sender. Null for every other deposit.
 */
export function depositMessage(travelRuleStatus: string | null): string | null {
  if (travelRuleStatus === 'awaiting' || travelRuleStatus === 'held')
    return DEPOSIT_TRAVEL_RULE_MESSAGES.awaitingOriginator;
  if (travelRuleStatus === 'returned') return DEPOSIT_TRAVEL_RULE_MESSAGES.returned;
  return null;
}

/**
 * A deposit's confirmations: blocks from its block to the network's newest, at most as many as the network needs
 * (after that the count no longer matters). Undefined until it is in a block, or while the tip is unknown.
 */
export function depositConfirmations(
  network: string | null,
  blockHeight: string | null,
  confirmations: (network: string) => number,
  latestHeight: (network: string) => number | undefined,
): number | undefined {
  const latest = network ? latestHeight(network) : undefined;
  if (!network || blockHeight === null || latest === undefined) return undefined;
  return Math.min(Math.max(0, latest - Number(blockHeight) + 1), confirmations(network));
}

/** The wire shape of a `SWAP_SELECT` row. */
export function swapEntity(row: SwapRow): SwapItem {
  return { ...row, id: Number(row.id), created_at: row.created_at.toISOString() };
}

/** The user's swaps, newest first, optionally by state. */
export async function listSwaps(db: pg.Pool, userId: string, q: WalletHistoryQuery): Promise<Page<SwapItem>> {
  const state = q.state && q.state !== 'all' ? q.state : null;
  const { total, rows } = await swapsPage(
    db,
    { userId, state, timeFrom: q.time_from ?? null, timeTo: q.time_to ?? null },
    q.limit,
    (q.page - 1) * q.limit,
  );
  return { total, items: rows.map(swapEntity) };
}

/** A {@link Keyset} page of all the user's swaps, oldest first, in the list's shape (the data export). */
export async function swapsAfter(db: pg.Pool, userId: string, page: Keyset): Promise<SwapItem[]> {
  return (await swapRowsAfter(db, userId, page)).map(swapEntity);
}
