import type { CommandResult, EngineState, OrderView, Trade } from '@exchange/engine';
import { formatUnits, toUnits } from '@exchange/shared';
import type pg from 'pg';
import type { Tx } from '../db/pool.ts';
import { combine, encodeArrays, insertOrders, insertTrades, updateOrders } from './batch-rows.ts';
import type { MarketInfo } from './engine-config.ts';
import { marketStatements } from './market-rows.ts';

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

/** One batch of applied commands, ready to write. */
export interface BatchEffects {
  seq: number;
  /** The committing core's term: the batch commits only while it is still the current one. */
  term: number;
  results: {
    result: CommandResult;
    ref?: string;
    withdrawal?: {
      kind: 'hold' | 'release' | 'settle';
      id: string;
      user?: number;
      currency?: string;
      amount?: bigint;
    };
    /** The command changed markets or fees: its events are written to the reference tables too. */
    market?: boolean;
  }[];
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
 * A batch's statements, in the order they must run. Almost always ONE statement (the batch's parts as data-modifying
 * `with` queries, see `combine`): PostgreSQL runs a lone statement as its own transaction, so such a batch is
 * written and committed in one round trip. A batch that also holds or releases withdrawals or changes markets has
 * statements of their own after it, and runs in an explicit transaction.
 */
export interface BatchSql {
  statements: Statement[];
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
    const result = await (name ? tx.query({ name, text, values }) : tx.query(text, values));
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
 * Turns every effect of a batch into multi-row `unnest` statements for ONE transaction: orders (new ones
 * inserted, changed ones updated, in their final state), trades, absolute balances, system-account deltas, ledger
 * postings aggregated per account, withdrawal holds, client command ids and the batch number. Pure CPU work: the
 * sequencer does it for the next batch while the previous one is written.
 */
export function prepareBatch(units: Units, batch: BatchEffects): BatchSql {
  /** The batch's parts, which touch disjoint rows: they become one statement. */
  const parts: Statement[] = [];
  const orders = new Map<number, OrderView>();
  const opened = new Set<number>();
  const trades: Trade[] = [];
  const balances = new Map<string, { user: number; currency: string; balance: bigint; locked: bigint }>();
  const postings = new Map<string, bigint>();
  for (const { result } of batch.results) {
    for (const o of result.orders) orders.set(o.id, o);
    for (const e of result.events) {
      if (e.type === 'Trade') trades.push(e);
      else if (e.type === 'OrderOpened') opened.add(e.orderId);
      else if (e.type === 'BalanceChanged') balances.set(`${e.user}:${e.currency}`, e);
    }
    for (const p of result.postings) {
      const key = `${p.account}\n${p.currency}`;
      postings.set(key, (postings.get(key) ?? 0n) + p.amount);
    }
  }

  // Orders opened in this batch are new rows; every other order was written by an earlier batch.
  const fresh: OrderView[] = [];
  const changed: OrderView[] = [];
  for (const o of orders.values()) (opened.has(o.id) ? fresh : changed).push(o);
  if (fresh.length > 0) parts.push(insertOrders(units, fresh));
  if (changed.length > 0) parts.push(updateOrders(units, changed));
  if (trades.length > 0) parts.push(insertTrades(units, trades));
  if (balances.size > 0) {
    const rows = [...balances.values()];
    parts.push({
      text: `insert into balances (user_id, currency_id, balance, locked, updated_at)
       select u, c, b, l, now() from unnest($1::bigint[], $2::text[], $3::numeric[], $4::numeric[]) as t(u, c, b, l)
       on conflict (user_id, currency_id) do update set balance = excluded.balance, locked = excluded.locked, updated_at = now()`,
      values: [
        rows.map((r) => r.user),
        rows.map((r) => r.currency),
        rows.map((r) => formatUnits(r.balance, units.precision(r.currency))),
        rows.map((r) => formatUnits(r.locked, units.precision(r.currency))),
      ],
    });
  }
  const ledger = [...postings.entries()]
    .filter(([, amount]) => amount !== 0n)
    .map(([key, amount]) => {
      const [account = '', currency = ''] = key.split('\n');
      return { account, currency, amount: formatUnits(amount, units.precision(currency)) };
    });
  if (ledger.length > 0) {
    parts.push({
      text: `insert into ledger_postings (batch_seq, account, currency_id, amount, kind)
       select $1, a, c, x, 'batch' from unnest($2::text[], $3::text[], $4::numeric[]) as t(a, c, x)`,
      values: [
        batch.seq,
        ledger.map((l) => l.account),
        ledger.map((l) => l.currency),
        ledger.map((l) => l.amount),
      ],
    });
    const system = ledger.filter((l) => !l.account.startsWith('u:'));
    if (system.length > 0) {
      parts.push({
        text: `insert into system_balances (account, currency_id, amount)
         select a, c, x from unnest($1::text[], $2::text[], $3::numeric[]) as t(a, c, x)
         on conflict (account, currency_id) do update set amount = system_balances.amount + excluded.amount`,
        values: [system.map((l) => l.account), system.map((l) => l.currency), system.map((l) => l.amount)],
      });
    }
  }
  const holds = holdStatements(units, batch);
  const refs = batch.results.filter((r) => r.ref);
  if (refs.length > 0) {
    parts.push({
      text: `insert into client_commands (ref, batch_seq, ok, code, order_id)
       select r, $1, o, c, i from unnest($2::text[], $3::boolean[], $4::text[], $5::bigint[]) as t(r, o, c, i)`,
      values: [
        batch.seq,
        refs.map((r) => r.ref),
        refs.map((r) => r.result.ok),
        refs.map((r) => r.result.code),
        refs.map((r) => r.result.orderId),
      ],
    });
  }
  // The fence: raises if another core has taken the lease since this one did, so a deposed core cannot commit.
  parts.push({
    text: 'update engine_state set batch_seq = $1, updated_at = now() where id = 1 and core_fence(core_term, $2)',
    values: [batch.seq, batch.term],
  });
  // As few round trips as possible: under load a round trip costs more than the statements in it. The parts of
  // the combined statement touch disjoint rows; holds and market changes may touch one row twice, so they follow.
  const markets = batch.results.some((r) => r.market)
    ? marketStatements(batch.results.map((r) => r.result))
    : [];
  return { statements: encodeArrays([...combine(parts), ...holds, ...markets]) };
}

function holdStatements(units: Units, batch: BatchEffects): Statement[] {
  const out: Statement[] = [];
  for (const { result, withdrawal } of batch.results) {
    if (!withdrawal || !result.ok) continue;
    if (withdrawal.kind === 'hold' && withdrawal.currency && withdrawal.amount !== undefined) {
      out.push({
        text: 'insert into withdrawal_holds (withdrawal_id, user_id, currency_id, amount) values ($1, $2, $3, $4)',
        values: [
          withdrawal.id,
          withdrawal.user,
          withdrawal.currency,
          formatUnits(withdrawal.amount, units.precision(withdrawal.currency)),
        ],
      });
    } else
      out.push({ text: 'delete from withdrawal_holds where withdrawal_id = $1', values: [withdrawal.id] });
  }
  return out;
}

/** An `orders` row (as node-postgres returns it) converted back to the engine's integer view. */
// biome-ignore lint/suspicious/noExplicitAny: a raw database row
export function orderViewFromRow(units: Units, o: Record<string, any>): OrderView {
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
    seq: Number(o.seq),
  };
}

/** Reads everything the engine needs to continue: balances, system accounts, open orders, last prices, holds. */
export async function loadEngineState(
  db: pg.Pool | pg.PoolClient,
  units: Units,
): Promise<{ state: EngineState; batchSeq: number; term: number }> {
  const [meta, maxima, balances, system, orders, prices, holds] = await Promise.all([
    db.query('select batch_seq, core_term from engine_state where id = 1'),
    db.query(
      `select (select coalesce(max(id), 0) from orders) as o, (select coalesce(max(id), 0) from trades) as t,
         (select coalesce(max(seq), 0) from orders) as s`,
    ),
    db.query('select user_id, currency_id, balance::text, locked::text from balances'),
    db.query('select account, currency_id, amount::text from system_balances'),
    db.query(`select * from orders where state in ('wait', 'pending') order by seq`),
    db.query(`select distinct on (market_id) market_id, price::text from trades order by market_id, id desc`),
    db.query('select withdrawal_id, user_id, currency_id, amount::text from withdrawal_holds'),
  ]);
  const state: EngineState = {
    nextOrderId: Number(maxima.rows[0].o) + 1,
    nextTradeId: Number(maxima.rows[0].t) + 1,
    nextSeq: Number(maxima.rows[0].s) + 1,
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
  return { state, batchSeq: Number(meta.rows[0].batch_seq), term: Number(meta.rows[0].core_term) };
}
