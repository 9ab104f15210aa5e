import { type TickerEntity, type TickerEvent, toUnits } from '@exchange/shared';
import type pg from 'pg';
import { trim } from './klines.ts';
import { dayFigures } from './repository.ts';

/** A Peatio ticker: 24-hour rolling figures of one market (see `TickerEntity`). */
export type Ticker = TickerEntity;

/** The figures from the trades table; the book and valuation fields are added by `MarketData.tickers`. */
export interface TradeFigures {
  at: number;
  ticker: {
    low: string;
    high: string;
    open: string;
    last: string;
    vol: string;
    volume: string;
    amount: string;
    avg_price: string;
    price_change_percent: string;
  };
}

/** "+20.00%" / "-3.15%" from open and last, in hundredths of a percent, exact (no floats). */
export function changePercent(open: string, last: string): string {
  const o = toUnits(open, 18);
  if (o === 0n) return '+0.00%';
  const diff = ((toUnits(last, 18) - o) * 10000n) / o;
  const sign = diff < 0n ? '-' : '+';
  const abs = diff < 0n ? -diff : diff;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}%`;
}

/** Tickers of every market from the last 24 hours of trades; a market without trades shows its last price. */
export async function computeTickers(db: pg.Pool, markets: string[]): Promise<Record<string, TradeFigures>> {
  const rows = await dayFigures(db, markets);
  const at = Math.floor(Date.now() / 1000);
  const out: Record<string, TradeFigures> = {};
  for (const r of rows) {
    const last = trim(r.last);
    const open = trim(r.open ?? r.last);
    out[r.id] = {
      at,
      ticker: {
        low: trim(r.low ?? r.last),
        high: trim(r.high ?? r.last),
        open,
        last,
        vol: trim(r.volume),
        volume: trim(r.volume),
        amount: trim(r.amount),
        avg_price: trim(r.avg_price),
        price_change_percent: changePercent(open, last),
      },
    };
  }
  return out;
}

/**
 * The `global.tickers` payload as Peatio's ranger publishes it: per market the ticker's fields at the top level
 * (`{ethbtc: {at, last, high, ...}}`), so clients read `event[market].last`.
 */
export function flatTickers(tickers: Record<string, Ticker>): Record<string, TickerEvent> {
  const out: Record<string, TickerEvent> = {};
  for (const [id, { at, ticker }] of Object.entries(tickers)) {
    const name = `${ticker.base_unit.toUpperCase()}/${ticker.quote_unit.toUpperCase()}`;
    out[id] = { ...ticker, name, at };
  }
  return out;
}
