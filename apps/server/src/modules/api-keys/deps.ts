import type pg from 'pg';
import type { MailPort } from '../../adapters/mail/port.ts';
import type { SmsPort } from '../../adapters/sms/port.ts';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { AuthDeps } from '../../http/auth.ts';
import type { ModuleLogger } from '../../log.ts';
import type { ServerKeys } from '../../modules/identity/crypto.ts';

/**
 * What the api-keys module's routes use, and nothing more: the app passes its whole dependency set, which has these
 * members among others, so the routes do not import the app (no import circle) and say what they touch.
 */
export interface ApiKeyRouteDeps extends Pick<AuthDeps, 'apiKeys'> {
  /** The app's clock (clock.ts): the time rules of this module are measured on it. */
  clock: Clock;
  /** The configuration. */
  config: Config;
  /** The database pool. */
  db: pg.Pool;
  /** The server's secrets (encryption and signing keys). */
  keys: ServerKeys;
  /** Outgoing mail. */
  mail: MailPort;
  /** Outgoing SMS. */
  sms: SmsPort;
  /** The process's logger. */
  logger: ModuleLogger;
}
