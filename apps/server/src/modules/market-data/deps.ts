import type pg from 'pg';
import type { Core } from '../../core/index.ts';
import type { MarketData } from '../../modules/market-data/service.ts';

/**
 * What the market-data module's routes use, and nothing more: the app passes its whole dependency set, which has these
 * members among others, so the routes do not import the app (no import circle) and say what they touch.
 */
export interface MarketDataRouteDeps {
  /** The database pool. */
  db: pg.Pool;
  /** The exchange core: the only way balances and orders change. */
  core: Core;
  /** Committed order books, tickers and candles. */
  marketData: MarketData;
}
