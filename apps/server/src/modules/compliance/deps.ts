import type pg from 'pg';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';

/**
 * What the compliance module's routes use, and nothing more: the app passes its whole dependency set, which has these
 * members among others, so the routes do not import the app (no import circle) and say what they touch.
 */
export interface ComplianceRouteDeps {
  /** The app's clock (clock.ts): the time rules of this module are measured on it. */
  clock: Clock;
  /** The configuration. */
  config: Config;
  /** The database pool. */
  db: pg.Pool;
}
