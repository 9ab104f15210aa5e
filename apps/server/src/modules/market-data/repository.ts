import type { OrderView } from '@exchange/engine';
import type pg from 'pg';
import { type OrderRow, orderViewFromRow, type Units } from '../../core/persistence.ts';

/**
 * The SQL of market data: markets, recent trades, candles and tickers built from the trades, the open orders of the
 * books, and the fee tables.
 */

/** Visible markets, by base and/or quote currency (null: any), a page of them and how many there are. */
export async function listPublicMarkets(
  db: pg.Pool,
  baseUnit: string | null,
  quoteUnit: string | null,
  limit: number,
  offset: number,
) {
  const where = `state <> 'hidden' and ($1::text is null or base_unit = $1) and ($2::text is null or quote_unit = $2)`;
  const filters = [baseUnit, quoteUnit];
  const [rows, total] = await Promise.all([
    db.query<{
      id: string;
      symbol: string;
      name: string;
      type: string;
      base_unit: string;
      quote_unit: string;
      min_price: string;
      max_price: string;
      min_amount: string;
      amount_precision: number;
      price_precision: number;
      state: string;
    }>(
      `select id, id as symbol, upper(base_unit) || '/' || upper(quote_unit) as name, 'spot' as type, base_unit, quote_unit,
         trim_scale(min_price)::text as min_price, trim_scale(max_price)::text as max_price,
         trim_scale(min_amount)::text as min_amount, amount_precision, price_precision, state
       from markets where ${where} order by position, id limit $3 offset $4`,
      [...filters, limit, offset],
    ),
    db.query<{ n: number }>(`select count(*)::int as n from markets where ${where}`, filters),
  ]);
  return { items: rows.rows, total: total.rows[0]!.n };
}

/** A trade as the public trades list reads it (decimals as text without trailing zeros). */
export interface TradeRow {
  id: string;
  price: string;
  amount: string;
  total: string;
  market: string;
  created_at: Date;
  taker_type: 'buy' | 'sell';
}

/** A market's most recent trades, newest first. */
export async function recentTrades(db: pg.Pool, market: string, limit: number) {
  const rows = await db.query<TradeRow>(
    `select id, trim_scale(price)::text as price, trim_scale(amount)::text as amount, trim_scale(total)::text as total,
     market_id as market, created_at, taker_type from trades where market_id = $1 order by id desc limit $2`,
    [market, limit],
  );
  return rows.rows;
}

/** Every trading-fee rule, in id order. */
export async function tradingFees(db: pg.Pool) {
  const rows = await db.query<{
    id: string;
    group: string;
    market_id: string;
    maker: string;
    taker: string;
    created_at: Date;
  }>(
    `select id, "group", market_id, trim_scale(maker)::text as maker, trim_scale(taker)::text as taker, created_at
   from trading_fees order by id`,
  );
  return rows.rows;
}

/** The fees of each trading level (the rules for any market), by level. */
export async function tradingLevels(db: pg.Pool) {
  const rows = await db.query<{ level: string; maker: string; taker: string }>(
    `select "group" as level, trim_scale(maker)::text as maker, trim_scale(taker)::text as taker
   from trading_fees where market_id = 'any' order by "group"`,
  );
  return rows.rows;
}

/** A candle as the database builds it: its start (epoch seconds) and open, high, low, close, volume (numeric text). */
export interface CandleRow {
  bucket: string;
  o: string;
  h: string;
  l: string;
  c: string;
  v: string;
}

/**
 * Candles of `seconds` each from a market's trades, buckets aligned to the epoch, whose start lies in
 * `from`..`to` (epoch seconds, undefined: unbounded): at most `limit`, the earliest ones ascending when `from` is
 * given, else the latest ones descending.
 */
export async function tradeCandles(
  db: pg.Pool,
  market: string,
  seconds: number,
  from: number | undefined,
  to: number | undefined,
  limit: number,
): Promise<CandleRow[]> {
  const rows = await db.query<CandleRow>(
    `select bucket, (array_agg(price order by id))[1] as o, max(price) as h, min(price) as l,
       (array_agg(price order by id desc))[1] as c, sum(amount) as v
     from (select id, price, amount, floor(extract(epoch from created_at) / $2)::bigint * $2 as bucket
           from trades where market_id = $1
             and ($3::bigint is null or created_at >= to_timestamp(ceil($3::numeric / $2) * $2))
             and ($4::bigint is null or created_at < to_timestamp((floor($4::numeric / $2) + 1) * $2))) t
     group by bucket order by bucket ${from === undefined ? 'desc' : 'asc'} limit $5`,
    [market, seconds, from ?? null, to ?? null, limit],
  );
  return rows.rows;
}

/**
 * A market's figures over the last 24 hours of trades (numeric text; open, high and low null without a trade
 * then), its last price ever when it had none (0 when it never traded).
 */
export interface TickerRow {
  id: string;
  open: string | null;
  high: string | null;
  low: string | null;
  last: string;
  volume: string;
  amount: string;
  avg_price: string;
}

/** The 24-hour figures of these markets. */
export async function dayFigures(db: pg.Pool, markets: string[]): Promise<TickerRow[]> {
  const rows = await db.query<TickerRow>(
    `with day as (select * from trades where created_at > now() - interval '24 hours'),
     agg as (select market_id, (array_agg(price order by id))[1] as open, max(price) as high, min(price) as low,
               (array_agg(price order by id desc))[1] as last, sum(amount) as volume, sum(total) as amount
             from day group by market_id),
     last_ever as (select distinct on (market_id) market_id, price from trades order by market_id, id desc)
     select m.id, agg.open::text, agg.high::text, agg.low::text, coalesce(agg.last, le.price, 0)::text as last,
       coalesce(agg.volume, 0)::text as volume, coalesce(agg.amount, 0)::text as amount,
       case when coalesce(agg.volume, 0) = 0 then 0 else agg.amount / agg.volume end::numeric(36, 18)::text as avg_price
     from markets m left join agg on agg.market_id = m.id left join last_ever le on le.market_id = m.id
     where m.id = any($1)`,
    [markets],
  );
  return rows.rows;
}

/** The open orders (`wait`, or partly filled `pending`) of the `markets` given, in sequence order. */
export async function openOrders(
  db: pg.Pool,
  units: Units,
  markets: { has(id: string): boolean },
): Promise<OrderView[]> {
  const rows = await db.query<OrderRow>(
    `select * from orders where state in ('wait', 'pending') order by seq`,
  );
  return rows.rows.filter((row) => markets.has(row.market_id)).map((row) => orderViewFromRow(units, row));
}

/**
 * The committed orders resting on one side of a market's book (open, priced; limit orders and triggered
 * stop-limit orders), best price first (asks ascending, bids descending), then by time: at most `limit`.
 */
export async function restingOrders(
  db: pg.Pool,
  units: Units,
  market: string,
  side: 'sell' | 'buy',
  limit: number,
): Promise<OrderView[]> {
  const rows = await db.query<OrderRow>(
    `select * from orders where market_id = $1 and state in ('wait', 'pending') and side = $2
       and price is not null and (ord_type = 'limit' or (ord_type <> 'stop_loss_order' and triggered_at is not null))
     order by price ${side === 'sell' ? 'asc' : 'desc'}, seq limit $3`,
    [market, side, limit],
  );
  return rows.rows.map((row) => orderViewFromRow(units, row));
}
