import type { EngineConfig } from '@exchange/engine';
import { formatUnits, toUnits } from '@exchange/shared';
import type pg from 'pg';
import { allQueries } from '../db/pool.ts';
import type { MarketInfo } from './market-info.ts';
import { NO_MAX_PRICE } from './market-rows.ts';

/** Fee rates from decimal strings ("0.001") to parts per million. */
function ppm(rate: string): bigint {
  return toUnits(rate, 6);
}

/** Builds the engine's configuration from the reference tables (currencies, markets, fees). */
export async function loadEngineConfig(
  db: pg.Pool | pg.PoolClient,
): Promise<{ config: EngineConfig; markets: Map<string, MarketInfo> }> {
  const [currencies, markets, fees] = await allQueries(db, [
    () =>
      db.query<{ id: string; precision: number }>(
        'select id, precision from currencies order by position, id',
      ),
    () =>
      db.query<{
        id: string;
        base_unit: string;
        quote_unit: string;
        amount_precision: number;
        price_precision: number;
        min_price: string;
        max_price: string;
        min_amount: string;
        position: number;
        state: string;
        created_at: Date;
        updated_at: Date;
        base_precision: number;
        quote_precision: number;
      }>(
        `select m.*, b.precision as base_precision, q.precision as quote_precision
         from markets m join currencies b on b.id = m.base_unit join currencies q on q.id = m.quote_unit order by m.position`,
      ),
    () =>
      db.query<{ market_id: string; group: string; maker: string; taker: string }>(
        `select market_id, "group", maker::text, taker::text from trading_fees`,
      ),
  ]);
  const info = new Map<string, MarketInfo>();
  const config: EngineConfig = {
    currencies: currencies.rows.map((c) => ({ id: c.id, precision: c.precision })),
    markets: markets.rows.map((m) => {
      info.set(m.id, {
        id: m.id,
        base: m.base_unit,
        quote: m.quote_unit,
        pricePrecision: m.price_precision,
        amountPrecision: m.amount_precision,
        minAmount: formatUnits(toUnits(m.min_amount, m.amount_precision), m.amount_precision),
        basePrecision: m.base_precision,
        quotePrecision: m.quote_precision,
      });
      return {
        id: m.id,
        base: m.base_unit,
        quote: m.quote_unit,
        pricePrecision: m.price_precision,
        amountPrecision: m.amount_precision,
        minPrice: toUnits(m.min_price, m.price_precision),
        maxPrice:
          m.max_price === '0.000000000000000000' ? NO_MAX_PRICE : toUnits(m.max_price, m.price_precision),
        minAmount: toUnits(m.min_amount, m.amount_precision),
        state: m.state === 'enabled' ? 'enabled' : 'disabled',
      };
    }),
    fees: { rules: [] },
  };
  for (const f of fees.rows) {
    const rates = { maker: ppm(f.maker), taker: ppm(f.taker) };
    if (f.market_id === 'any' && f.group === 'any')
      config.fees = { ...config.fees, defaultMaker: rates.maker, defaultTaker: rates.taker };
    else {
      config.fees?.rules?.push({
        ...rates,
        ...(f.market_id !== 'any' ? { market: f.market_id } : {}),
        ...(f.group !== 'any' ? { level: Number(f.group) } : {}),
      });
    }
  }
  return { config, markets: info };
}
