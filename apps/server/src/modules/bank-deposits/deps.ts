import type pg from 'pg';
import type { AuthDeps } from '../../http/auth.ts';
import type { BankDepositDeps } from '../../modules/bank-deposits/service.ts';

/**
 * What the bank-deposits module's routes use, and nothing more: the app passes its whole dependency set, which has these
 * members among others, so the routes do not import the app (no import circle) and say what they touch.
 */
export interface BankDepositRouteDeps extends AuthDeps {
  /** The database pool. */
  db: pg.Pool;
  /** EUR deposits by SEPA transfer. */
  bankDeposits: BankDepositDeps;
}
