import type pg from 'pg';
import type { MailPort } from '../../adapters/mail/port.ts';
import type { CardReviewDesk, KycReviewDesk } from '../../adapters/simulators.ts';
import type { SmsPort } from '../../adapters/sms/port.ts';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Core } from '../../core/index.ts';
import type { AuthDeps } from '../../http/auth.ts';
import type { ServerKeys } from '../../modules/identity/crypto.ts';
import type { Wallet } from '../../modules/wallet/index.ts';

/**
 * What the admin module's routes use, and nothing more: the app passes its whole dependency set, which has these
 * members among others, so the routes do not import the app (no import circle) and say what they touch.
 */
export interface AdminRouteDeps extends Pick<AuthDeps, 'users' | 'sessions'> {
  /** The app's clock (clock.ts): the time rules of this module are measured on it. */
  clock: Clock;
  /** The configuration. */
  config: Config;
  /** The database pool. */
  db: pg.Pool;
  /** The exchange core: the only way balances and orders change. */
  core: Core;
  /** The server's secrets (encryption and signing keys). */
  keys: ServerKeys;
  /** Outgoing mail. */
  mail: MailPort;
  /** Outgoing SMS. */
  sms: SmsPort;
  /** Deposits, withdrawals and the chains behind them. */
  wallet: Wallet;
  /** The KYC simulator, when it is the provider: the console decides and reads documents at its reviewer's desk. */
  kycSimulator?: { desk: KycReviewDesk };
  /** The card issuer simulator, when it is the issuer: the console decides holders at its reviewer's desk. */
  cardSimulator?: { desk: CardReviewDesk };
}
