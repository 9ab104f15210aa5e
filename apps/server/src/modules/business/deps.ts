import type pg from 'pg';
import type { Clock } from '../../clock.ts';
import type { ModuleLogger } from '../../log.ts';
import type { ServerKeys } from '../../modules/identity/crypto.ts';
import type { KycService } from '../../modules/kyc/service.ts';

/**
 * What the business module's routes use, and nothing more: the app passes its whole dependency set, which has these
 * members among others, so the routes do not import the app (no import circle) and say what they touch.
 */
export interface BusinessRouteDeps {
  /** The database pool. */
  db: pg.Pool;
  /** Where time comes from (clock.ts). */
  clock: Clock;
  /** The server's secrets (encryption and signing keys). */
  keys: ServerKeys;
  /** Identity verification. */
  kyc: KycService;
  /** The process's logger. */
  logger: ModuleLogger;
}
