import type { AuthDeps } from '../../http/auth.ts';
import type { ModuleLogger } from '../../log.ts';
import type { Wallet } from '../../modules/wallet/index.ts';

/**
 * What the payouts module's routes use, and nothing more: the app passes its whole dependency set, which has these
 * members among others, so the routes do not import the app (no import circle) and say what they touch.
 */
export interface PayoutRouteDeps extends AuthDeps {
  /** The process's logger. */
  logger: ModuleLogger;
  /** Deposits, withdrawals and the chains behind them. */
  wallet: Wallet;
}
