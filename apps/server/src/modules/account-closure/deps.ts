import type pg from 'pg';
import type { Clock } from '../../clock.ts';
import type { Core } from '../../core/index.ts';
import type { AuthDeps } from '../../http/auth.ts';
import type { ModuleLogger } from '../../log.ts';
import type { ServerKeys } from '../../modules/identity/crypto.ts';
import type { Wallet } from '../../modules/wallet/index.ts';

/**
 * What the account-closure module's routes use, and nothing more: the app passes its whole dependency set, which has these
 * members among others, so the routes do not import the app (no import circle) and say what they touch.
 */
export interface ClosureRouteDeps extends Pick<AuthDeps, 'sessions'> {
  /** The database pool. */
  db: pg.Pool;
  /** Where time comes from (clock.ts). */
  clock: Clock;
  /** The exchange core: the only way balances and orders change. */
  core: Core;
  /** The server's secrets (encryption and signing keys). */
  keys: ServerKeys;
  /** The process's logger. */
  logger: ModuleLogger;
  /** Deposits, withdrawals and the chains behind them. */
  wallet: Wallet;
}
