import type pg from 'pg';

/** The SQL of the public market-data routes: markets, recent trades and the fee tables. */

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
    db.query(
      `select id, id as symbol, upper(base_unit) || '/' || upper(quote_unit) as name, 'spot' as type, base_unit, quote_unit,
         trim_scale(min_price)::text as min_price, trim_scale(max_price)::text as max_price,
         trim_scale(min_amount)::text as min_amount, amount_precision, price_precision, state
       from markets where ${where} order by position, id limit $3 offset $4`,
      [...filters, limit, offset],
    ),
    db.query(`select count(*)::int as n from markets where ${where}`, filters),
  ]);
  return { items: rows.rows, total: total.rows[0].n as number };
}

/** A market's most recent trades, newest first. */
export async function recentTrades(db: pg.Pool, market: string, limit: number) {
  const rows = await db.query(
    `select id, trim_scale(price)::text as price, trim_scale(amount)::text as amount, trim_scale(total)::text as total,
     market_id as market, created_at, taker_type from trades where market_id = $1 order by id desc limit $2`,
    [market, limit],
  );
  return rows.rows;
}

/** Every trading-fee rule, in id order. */
export async function tradingFees(db: pg.Pool) {
  const rows = await db.query(
    `select id, "group", market_id, trim_scale(maker)::text as maker, trim_scale(taker)::text as taker, created_at
   from trading_fees order by id`,
  );
  return rows.rows;
}

/** The fees of each trading level (the rules for any market), by level. */
export async function tradingLevels(db: pg.Pool) {
  const rows = await db.query(
    `select "group" as level, trim_scale(maker)::text as maker, trim_scale(taker)::text as taker
   from trading_fees where market_id = 'any' order by "group"`,
  );
  return rows.rows;
}
