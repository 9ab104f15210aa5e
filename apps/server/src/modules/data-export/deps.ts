import type pg from 'pg';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Core } from '../../core/index.ts';
import type { ModuleLogger } from '../../log.ts';
import type { Cards } from '../../modules/card/index.ts';
import type { Wallet } from '../../modules/wallet/index.ts';

/**
 * What the data-export module's routes use, and nothing more: the app passes its whole dependency set, which has these
 * members among others, so the routes do not import the app (no import circle) and say what they touch.
 */
export interface DataExportRouteDeps {
  /** The configuration. */
  config: Config;
  /** Where time comes from (clock.ts). */
  clock: Clock;
  /** The database pool. */
  db: pg.Pool;
  /** The exchange core: the only way balances and orders change. */
  core: Core;
  /** The card suite. */
  cards: Cards;
  /** The process's logger. */
  logger: ModuleLogger;
  /** Deposits, withdrawals and the chains behind them. */
  wallet: Wallet;
}
