import { hash } from 'node:crypto';
import type { OrderView, Trade } from '@exchange/engine';
import { bool, type Cell, decimal, literals, num, time, word } from './array-literals.ts';
import { orderUuid } from './order-uuid.ts';
import type { Statement, Units } from './persistence.ts';

/**
 * The columns an order's later changes touch (id, owner, market, prices, volume, fees, time in force and post-only
 * never change; `seq`, its
 * place in the queue, changes when a stop order is triggered).
 */
function changingCells(units: Units): Cell<OrderView>[] {
  const volume = (o: OrderView, v: bigint) => decimal(v, units.market(o.market).amountPrecision);
  return [
    (o) => volume(o, o.remainingVolume),
    (o) => volume(o, o.executedVolume),
    (o) => decimal(o.locked, units.precision(units.spendCurrency(o))),
    (o) => decimal(o.fundsReceived, units.precision(units.receiveCurrency(o))),
    (o) => decimal(o.fundsSpent, units.precision(units.spendCurrency(o))),
    (o) => num(o.tradesCount),
    (o) => word(o.state),
    (o) => time(o.triggeredAt),
    (o) => time(o.updatedAt),
    (o) => num(o.seq),
  ];
}

/**
 * Orders opened in this batch, in their state at the end of it: a plain multi-row insert. Should one exist
 * already, the primary key refuses it and the batch fails (the core stops) rather than overwrite it.
 */
export function insertOrders(units: Units, orders: OrderView[]): Statement {
  const price = (o: OrderView, v: bigint | null) =>
    v === null ? 'NULL' : decimal(v, units.market(o.market).pricePrecision);
  return {
    text: `insert into orders (id, uuid, user_id, market_id, side, ord_type, price, stop_price, origin_volume, maker_fee,
       taker_fee, created_at, time_in_force, post_only, remaining_volume, executed_volume, locked, funds_received,
       funds_spent, trades_count, state, triggered_at, updated_at, seq)
     select * from unnest($1::bigint[], $2::uuid[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::numeric[],
       $8::numeric[], $9::numeric[], $10::numeric[], $11::numeric[], $12::timestamptz[], $13::text[], $14::boolean[],
       $15::numeric[], $16::numeric[], $17::numeric[], $18::numeric[], $19::numeric[], $20::int[], $21::text[],
       $22::timestamptz[], $23::timestamptz[], $24::bigint[])`,
    values: literals(orders, [
      (o) => num(o.id),
      (o) => word(orderUuid(o.id)),
      (o) => num(o.user),
      (o) => word(o.market),
      (o) => word(o.side),
      (o) => word(o.ordType),
      (o) => price(o, o.price),
      (o) => price(o, o.stopPrice),
      (o) => decimal(o.originVolume, units.market(o.market).amountPrecision),
      (o) => decimal(o.makerFee, 6),
      (o) => decimal(o.takerFee, 6),
      (o) => time(o.createdAt),
      (o) => word(o.timeInForce),
      (o) => bool(o.postOnly),
      ...changingCells(units),
    ]),
    rows: orders.length,
  };
}

/**
 * Orders written by an earlier batch that changed in this one (fills, cancels, stop triggers): only the columns
 * that change. Every one must find its row, or the batch fails. The `any($1)` lets the planner see how few rows
 * it reads, so it looks them up by primary key instead of hashing the whole table.
 */
export function updateOrders(units: Units, orders: OrderView[]): Statement {
  return {
    text: `update orders set remaining_volume = t.rv, executed_volume = t.ev, locked = t.l, funds_received = t.fr,
       funds_spent = t.fs, trades_count = t.tc, state = t.s, triggered_at = t.ta, updated_at = t.ua, seq = t.sq
     from unnest($1::bigint[], $2::numeric[], $3::numeric[], $4::numeric[], $5::numeric[], $6::numeric[], $7::int[],
       $8::text[], $9::timestamptz[], $10::timestamptz[], $11::bigint[]) as t(id, rv, ev, l, fr, fs, tc, s, ta, ua, sq)
     where orders.id = t.id and orders.id = any($1)`,
    values: literals(orders, [(o) => num(o.id), ...changingCells(units)]),
    rows: orders.length,
  };
}

/** Trades of the batch: a plain multi-row insert. */
export function insertTrades(units: Units, trades: Trade[]): Statement {
  const m = (t: Trade) => units.market(t.market);
  // The maker receives quote when the taker buys, base when the taker sells; fees are in what each receives.
  const makerFeeCurrency = (t: Trade) => (t.takerSide === 'buy' ? m(t).quote : m(t).base);
  const takerFeeCurrency = (t: Trade) => (t.takerSide === 'buy' ? m(t).base : m(t).quote);
  return {
    text: `insert into trades (id, market_id, price, amount, total, maker_order_id, taker_order_id, maker_id, taker_id,
       taker_type, maker_fee, taker_fee, created_at)
     select * from unnest($1::bigint[], $2::text[], $3::numeric[], $4::numeric[], $5::numeric[], $6::bigint[],
       $7::bigint[], $8::bigint[], $9::bigint[], $10::text[], $11::numeric[], $12::numeric[], $13::timestamptz[])`,
    values: literals(trades, [
      (t) => num(t.id),
      (t) => word(t.market),
      (t) => decimal(t.price, m(t).pricePrecision),
      (t) => decimal(t.volume, m(t).amountPrecision),
      (t) => decimal(t.total, units.precision(m(t).quote)),
      (t) => num(t.makerOrderId),
      (t) => num(t.takerOrderId),
      (t) => num(t.makerUser),
      (t) => num(t.takerUser),
      (t) => word(t.takerSide),
      (t) => decimal(t.makerFee, units.precision(makerFeeCurrency(t))),
      (t) => decimal(t.takerFee, units.precision(takerFeeCurrency(t))),
      (t) => time(t.at),
    ]),
  };
}

/**
 * Several data-changing statements on different tables as ONE statement (data-modifying `with` queries), so
 * they cost one round trip. Each part's parameters are renumbered after the previous parts'; the statement
 * answers how many rows each part touched (`n0`, `n1`, ...), which the runner checks against `counts`. The parts
 * share one snapshot and may run in any order, so none may touch a row another part touches.
 *
 * The statement is named after its text, so each connection parses and plans it once: the parts' texts are fixed
 * (every row travels in array parameters), so there are only as many names as combinations of parts, and planning
 * the whole statement again cost about a sixth of a batch's time in PostgreSQL.
 */
export function combine(statements: Statement[]): Statement[] {
  if (statements.length < 2) return statements;
  const parts: string[] = [];
  const values: unknown[] = [];
  for (const [i, s] of statements.entries()) {
    const offset = values.length;
    const text = s.text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
    parts.push(`s${i} as (${text} returning 1)`);
    values.push(...s.values);
  }
  const counts = statements.map((_, i) => `(select count(*) from s${i}) as n${i}`);
  const text = `with ${parts.join(',\n')}\nselect ${counts.join(', ')}`;
  return [
    {
      text,
      name: `batch_${hash('sha1', text)}`,
      values,
      counts: statements.map((s) => s.rows),
    },
  ];
}

const NEEDS_ESCAPE = /[\\"]/;
const ESCAPED = /[\\"]/g;

/** One array element in PostgreSQL's array literal syntax: strings always quoted, so any text is safe. */
function arrayElement(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (typeof v === 'boolean') return v ? 't' : 'f';
  const text = String(v);
  // Almost every element is a decimal or a timestamp: test before replacing, so those allocate nothing extra.
  return `"${NEEDS_ESCAPE.test(text) ? text.replace(ESCAPED, '\\$&') : text}"`;
}

/**
 * Array parameters as PostgreSQL array literals (`{1,"a",NULL}`), built here in one pass instead of by the
 * driver per element at send time: the batch's encoding is then done while the previous batch is written.
 */
export function encodeArrays(statements: Statement[]): Statement[] {
  for (const s of statements) {
    s.values = s.values.map((v) => (Array.isArray(v) ? `{${v.map(arrayElement).join(',')}}` : v));
  }
  return statements;
}
