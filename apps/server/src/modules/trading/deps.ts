import type pg from 'pg';
import type { Core } from '../../core/index.ts';
import type { AuthDeps } from '../../http/auth.ts';
import type { StreamPublisher } from '../../modules/ranger/forwarded.ts';
import type { Wallet } from '../../modules/wallet/index.ts';

/**
 * What the trading module's routes use, and nothing more: the app passes its whole dependency set, which has these
 * members among others, so the routes do not import the app (no import circle) and say what they touch.
 */
export interface TradingRouteDeps extends AuthDeps {
  /** The database pool. */
  db: pg.Pool;
  /** The exchange core: the only way balances and orders change. */
  core: Core;
  /** Publishes stream messages made by a request. */
  streams: StreamPublisher;
  /** Deposits, withdrawals and the chains behind them. */
  wallet: Wallet;
}
