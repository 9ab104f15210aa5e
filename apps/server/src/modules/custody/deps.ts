import type pg from 'pg';
import type { Clock } from '../../clock.ts';
import type { AuthDeps } from '../../http/auth.ts';
import type { ServerKeys } from '../../modules/identity/crypto.ts';
import type { Wallet } from '../../modules/wallet/index.ts';

/**
 * What the custody module's routes use, and nothing more: the app passes its whole dependency set, which has these
 * members among others, so the routes do not import the app (no import circle) and say what they touch.
 */
export interface CustodyRouteDeps extends AuthDeps {
  /** The app's clock (clock.ts): the staff step-up window is measured on it. */
  clock: Clock;
  /** The database pool. */
  db: pg.Pool;
  /** The server's secrets (encryption and signing keys). */
  keys: ServerKeys;
  /** Deposits, withdrawals and the chains behind them. */
  wallet: Wallet;
}
