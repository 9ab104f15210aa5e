import type { EngineState, OrderView } from '@exchange/engine';
import { toUnits } from '@exchange/shared';
import type pg from 'pg';
import { allQueries, type NoRows, type Tx } from '../db/pool.ts';
import type { MarketInfo } from './market-info.ts';

/** Decimal conversions between the engine's integers and the database's numerics. */
export class Units {
  constructor(
    readonly markets: Map<string, MarketInfo>,
    readonly precisions: Map<string, number>,
  ) {}

  /**
   * Takes the markets and currencies as loaded from the database, in place: the edges hold these very maps
   * (`Core.markets`), so they see a reload too.
   */
  replace(markets: Map<string, MarketInfo>, currencies: { id: string; precision: number }[]): void {
    this.markets.clear();
    for (const [id, info] of markets) this.markets.set(id, info);
    this.precisions.clear();
    for (const c of currencies) this.precisions.set(c.id, c.precision);
  }

  market(id: string): MarketInfo {
    const m = this.markets.get(id);
    if (!m) throw new Error(`unknown market ${id}`);
    return m;
  }
  precision(currency: string): number {
    const p = this.precisions.get(currency);
    if (p === undefined) throw new Error(`unknown currency ${currency}`);
    return p;
  }
  /** Currency held/spent by an order: quote for buys, base for sells. */
  spendCurrency(o: { market: string; side: string }): string {
    const m = this.market(o.market);
    return o.side === 'buy' ? m.quote : m.base;
  }
  receiveCurrency(o: { market: string; side: string }): string {
    const m = this.market(o.market);
    return o.side === 'buy' ? m.base : m.quote;
  }
}

/**
 * One SQL statement with its parameters, and the number of rows it must touch when that is known. A statement
 * made of several (see `combine`) answers one row of counts instead, and `counts` says what each must be.
 */
export interface Statement {
  text: string;
  /** Set on a statement whose text recurs (see `combine`): PostgreSQL keeps it prepared on each connection. */
  name?: string;
  values: unknown[];
  rows?: number;
  counts?: (number | undefined)[];
}

/**
 * The connections that plan named statements for their values each time. A batch statement is parsed once per
 * connection (see `combine`), but PostgreSQL's generic plan of it, made without the size of its arrays, slowed the
 * core about tenfold once the orders table had grown (seen in the durable bench).
 */
const customPlans = new WeakSet<Tx>();

/**
 * Runs statements in the given transaction, one by one. A statement touching another number of rows than it
 * must (an order update that finds no row) throws, so the transaction rolls back and the core stops.
 */
export async function executeBatch(tx: Tx, statements: Statement[]): Promise<void> {
  if (!customPlans.has(tx)) {
    await tx.query('set plan_cache_mode = force_custom_plan');
    customPlans.add(tx);
  }
  for (const statement of statements) {
    const { text, name, values } = statement;
    const result = await (name ? tx.query<NoRows>({ name, text, values }) : tx.query<NoRows>(text, values));
    if (statement.rows !== undefined && result.rowCount !== statement.rows) {
      throw new Error(`batch statement touched ${result.rowCount} rows, not ${statement.rows}`);
    }
    for (const [i, expected] of (statement.counts ?? []).entries()) {
      const touched = Number(result.rows[0]?.[`n${i}`]);
      if (expected !== undefined && touched !== expected) {
        throw new Error(`batch statement ${i} touched ${touched} rows, not ${expected}`);
      }
    }
  }
}

/**
 * Writes a batch's statements on `client`: a single statement is its own transaction; several are one (one after
 * the other: node-postgres sends a client's queries in turn anyway, and deprecates queueing them).
 */
export async function writeStatements(client: Tx, statements: Statement[]): Promise<void> {
  if (statements.length === 1) return executeBatch(client, statements);
  await client.query('begin');
  await executeBatch(client, statements);
  await client.query('commit');
}

/** An `orders` row as node-postgres returns it (`select *`): bigint and numeric columns as text. */
export interface OrderRow {
  id: string;
  uuid: string;
  client_ref: string | null;
  user_id: string;
  market_id: string;
  side: OrderView['side'];
  ord_type: OrderView['ordType'];
  price: string | null;
  stop_price: string | null;
  origin_volume: string;
  remaining_volume: string;
  executed_volume: string;
  locked: string;
  funds_received: string;
  funds_spent: string;
  trades_count: number;
  state: OrderView['state'];
  maker_fee: string;
  taker_fee: string;
  seq: string;
  triggered_at: Date | null;
  created_at: Date;
  updated_at: Date;
  time_in_force: OrderView['timeInForce'];
  post_only: boolean;
}

/** An `orders` row converted back to the engine's integer view. */
export function orderViewFromRow(units: Units, o: OrderRow): OrderView {
  const market = units.market(o.market_id);
  const view = { market: o.market_id, side: o.side };
  return {
    id: Number(o.id),
    user: Number(o.user_id),
    market: o.market_id,
    side: o.side,
    ordType: o.ord_type,
    price: o.price === null ? null : toUnits(o.price, market.pricePrecision),
    stopPrice: o.stop_price === null ? null : toUnits(o.stop_price, market.pricePrecision),
    originVolume: toUnits(o.origin_volume, market.amountPrecision),
    remainingVolume: toUnits(o.remaining_volume, market.amountPrecision),
    executedVolume: toUnits(o.executed_volume, market.amountPrecision),
    locked: toUnits(o.locked, units.precision(units.spendCurrency(view))),
    fundsReceived: toUnits(o.funds_received, units.precision(units.receiveCurrency(view))),
    fundsSpent: toUnits(o.funds_spent, units.precision(units.spendCurrency(view))),
    tradesCount: o.trades_count,
    state: o.state,
    createdAt: o.created_at.getTime(),
    updatedAt: o.updated_at.getTime(),
    makerFee: toUnits(o.maker_fee, 6),
    takerFee: toUnits(o.taker_fee, 6),
    triggeredAt: o.triggered_at === null ? null : o.triggered_at.getTime(),
    timeInForce: o.time_in_force,
    postOnly: o.post_only,
    seq: Number(o.seq),
  };
}

/** Where the core stands: the journal's newest batch, the last one projected into the tables, the term. */
export interface CorePosition {
  /** The newest batch in the journal (`engine_state.batch_seq`). */
  journalSeq: number;
  /** The last batch the tables hold (`core_projection.projected_seq`). */
  projectedSeq: number;
  /** The sequence number of the next command. */
  nextCommand: number;
  term: number;
}

/** Where the core stands (`engine_state`, `core_projection`). */
export async function readPosition(db: pg.Pool | pg.PoolClient): Promise<CorePosition> {
  const m = (
    await db.query<{ batch_seq: string; projected_seq: string; next_command: string; core_term: string }>(
      `select e.batch_seq, p.projected_seq, e.next_command, e.core_term
       from engine_state e, core_projection p where e.id = 1 and p.id = 1`,
    )
  ).rows[0]!;
  return {
    journalSeq: Number(m.batch_seq),
    projectedSeq: Number(m.projected_seq),
    nextCommand: Number(m.next_command),
    term: Number(m.core_term),
  };
}

/**
 * Reads the engine's state as the tables hold it (as of `projectedSeq`): balances, system accounts, open orders,
 * last prices, holds; and where the core stands. Read it in one snapshot (or with the projector stopped).
 */
export async function loadEngineState(
  db: pg.Pool | pg.PoolClient,
  units: Units,
): Promise<{ state: EngineState; position: CorePosition }> {
  const [position, maxima, balances, system, orders, prices, holds] = await allQueries(db, [
    () => readPosition(db),
    () =>
      db.query<{ o: string; t: string; s: string }>(
        `select (select coalesce(max(id), 0) from orders) as o, (select coalesce(max(id), 0) from trades) as t,
           (select coalesce(max(seq), 0) from orders) as s`,
      ),
    () =>
      db.query<{ user_id: string; currency_id: string; balance: string; locked: string }>(
        'select user_id, currency_id, balance::text, locked::text from balances',
      ),
    () =>
      db.query<{ account: EngineState['system'][number]['account']; currency_id: string; amount: string }>(
        'select account, currency_id, amount::text from system_balances',
      ),
    () => db.query<OrderRow>(`select * from orders where state in ('wait', 'pending') order by seq`),
    () =>
      db.query<{ market_id: string; price: string }>(
        `select distinct on (market_id) market_id, price::text from trades order by market_id, id desc`,
      ),
    () =>
      db.query<{ withdrawal_id: string; user_id: string; currency_id: string; amount: string }>(
        'select withdrawal_id, user_id, currency_id, amount::text from withdrawal_holds',
      ),
  ]);
  const state: EngineState = {
    nextOrderId: Number(maxima.rows[0]!.o) + 1,
    nextTradeId: Number(maxima.rows[0]!.t) + 1,
    nextSeq: Number(maxima.rows[0]!.s) + 1,
    balances: balances.rows.map((b) => ({
      user: Number(b.user_id),
      currency: b.currency_id,
      balance: toUnits(b.balance, units.precision(b.currency_id)),
      locked: toUnits(b.locked, units.precision(b.currency_id)),
    })),
    system: system.rows.map((s) => ({
      account: s.account,
      currency: s.currency_id,
      amount: toUnits(s.amount, units.precision(s.currency_id)),
    })),
    lastPrices: prices.rows.map((p) => ({
      market: p.market_id,
      price: toUnits(p.price, units.market(p.market_id).pricePrecision),
    })),
    orders: orders.rows.map((o) => orderViewFromRow(units, o)),
    withdrawals: holds.rows.map((h) => ({
      withdrawalId: h.withdrawal_id,
      user: Number(h.user_id),
      currency: h.currency_id,
      amount: toUnits(h.amount, units.precision(h.currency_id)),
    })),
  };
  return { state, position };
}
