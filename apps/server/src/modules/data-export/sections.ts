import type pg from 'pg';
import type { Units } from '../../core/persistence.ts';
import type { Keyset } from '../../db/keyset.ts';
import { keysAfter } from '../api-keys/repository.ts';
import { issuedCards } from '../card/repository.ts';
import type { CardStatement } from '../card/statement.ts';
import { activitiesAfter } from '../identity/activities-repository.ts';
import { listBalances, ordersAfter, tradesAfter } from '../trading/repository.ts';
import { beneficiariesAfter } from '../wallet/beneficiaries.ts';
import { historyAfter, swapsAfter } from '../wallet/history.ts';
import { businessSections } from './business-sections.ts';
import type { Section } from './files.ts';
import { newestId, type WalkedTable } from './repository.ts';

/** Rows per database page: small enough to hold, large enough that a long history takes few queries. */
const PAGE = 500;

/** What the sections read from. */
export interface SectionDeps {
  db: pg.Pool;
  units: Units;
  /** The deposits' confirmations, as the deposit list shows them. */
  confirmations: (network: string) => number;
  latestHeight: (network: string) => number | undefined;
  statement: CardStatement;
}

type Row = Record<string, unknown>;

/**
 * A section read from `table` by keyset pages (`fetch`), oldest first. The walk's end is the table's newest id
 * when the CSV file begins, kept for the JSON file, so both files hold the same rows.
 */
function walked(
  db: pg.Pool,
  name: string,
  table: WalkedTable,
  columns: readonly string[],
  fetch: (page: Keyset) => Promise<{ cursor: number; row: object }[]>,
): Section {
  let upTo: number | undefined;
  return {
    name,
    columns,
    async *batches() {
      upTo ??= await newestId(db, table);
      for (let after = 0; ; ) {
        const page = await fetch({ after, upTo, limit: PAGE });
        if (page.length > 0) yield page.map((p) => p.row as Row);
        const last = page.at(-1);
        if (!last || page.length < PAGE) return;
        after = last.cursor;
      }
    },
  };
}

/** Rows whose own `id` is the cursor. */
const byId = <T extends { id: number }>(rows: T[]) => rows.map((row) => ({ cursor: row.id, row }));

const HISTORY = ['id', 'tid', 'currency', 'blockchain_key', 'amount', 'fee', 'state', 'transaction_type'];
const CHAIN = ['txid', 'blockchain_txid', 'rid'];

/**
 * The tables of the export besides the profile: each the user's own rows only (every query is by the signed-in
 * user's id), in the shapes the API lists them in, whole and oldest first.
 */
export function tableSections(deps: SectionDeps, userId: string, today: string): Section[] {
  const { db } = deps;
  const numericId = Number(userId);
  return [
    walked(
      db,
      'security-log',
      'activities',
      ['id', 'created_at', 'topic', 'action', 'result', 'ip', 'user_agent', 'data'],
      async (page) => byId(await activitiesAfter(db, userId, page)),
    ),
    {
      name: 'balances',
      columns: ['currency', 'name', 'balance', 'locked'],
      async *batches() {
        yield await listBalances(db, numericId);
      },
    },
    walked(
      db,
      'orders',
      'orders',
      [
        'id',
        'uuid',
        'market',
        'side',
        'ord_type',
        'price',
        'stop_price',
        'avg_price',
        'state',
        'origin_volume',
        'remaining_volume',
        'executed_volume',
        'maker_fee',
        'taker_fee',
        'trades_count',
        'time_in_force',
        'post_only',
        'created_at',
        'updated_at',
      ],
      async (page) => byId(await ordersAfter(db, deps.units, numericId, page)),
    ),
    walked(
      db,
      'trades',
      'trades',
      [
        'id',
        'created_at',
        'market',
        'side',
        'price',
        'amount',
        'total',
        'fee',
        'fee_amount',
        'fee_currency',
        'order_id',
        'taker_type',
      ],
      async (page) => byId(await tradesAfter(db, numericId, page)),
    ),
    walked(
      db,
      'deposits',
      'deposits',
      [...HISTORY, ...CHAIN, 'confirmations', 'created_at', 'updated_at'],
      async (page) =>
        byId(await historyAfter(db, userId, 'deposits', page, deps.confirmations, deps.latestHeight)),
    ),
    walked(
      db,
      'withdrawals',
      'withdrawals',
      [...HISTORY, ...CHAIN, 'note', 'created_at', 'updated_at'],
      async (page) =>
        byId(await historyAfter(db, userId, 'withdrawals', page, deps.confirmations, deps.latestHeight)),
    ),
    walked(db, 'adjustments', 'adjustments', [...HISTORY, 'created_at', 'updated_at'], async (page) =>
      byId(await historyAfter(db, userId, 'adjustments', page, deps.confirmations, deps.latestHeight)),
    ),
    walked(
      db,
      'swaps',
      'swaps',
      ['id', 'created_at', 'ask_currency', 'currency', 'price', 'total', 'fee', 'state'],
      async (page) => byId(await swapsAfter(db, userId, page)),
    ),
    walked(
      db,
      'beneficiaries',
      'beneficiaries',
      ['id', 'name', 'description', 'currency', 'blockchain_key', 'state', 'data', 'internal', 'created_at'],
      async (page) => byId(await beneficiariesAfter(db, userId, page)),
    ),
    walked(
      db,
      'api-keys',
      'api_keys',
      ['kid', 'algorithm', 'state', 'allowed_ips', 'created_at', 'updated_at'],
      async (page) => (await keysAfter(db, userId, page)).map(({ id, key }) => ({ cursor: id, row: key })),
    ),
    {
      name: 'card-statements',
      columns: [
        'cardNo',
        'tradeId',
        'businessDate',
        'tradeType',
        'tradeStatus',
        'amount',
        'fee',
        'currency',
        'txnAmount',
        'currencyTxn',
        'billAmount',
        'exchangeRate',
        'remark',
      ],
      async *batches() {
        for (const card of await issuedCards(db, userId))
          for await (const rows of deps.statement.all(card, today)) if (rows.length > 0) yield rows;
      },
    },
    ...businessSections(db, userId),
  ];
}
