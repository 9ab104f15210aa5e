import type pg from 'pg';
import type { Clock } from '../../clock.ts';
import type { Core } from '../../core/index.ts';
import type { AuthDeps } from '../../http/auth.ts';

/**
 * What the members module's routes use, and nothing more: the app passes its whole dependency set, which has these
 * members among others, so the routes do not import the app (no import circle) and say what they touch.
 */
export interface MemberRouteDeps extends AuthDeps {
  /** The database pool. */
  db: pg.Pool;
  /** The exchange core: the only way balances and orders change. */
  core: Core;
  /** Where time comes from (clock.ts): the portfolio's time stamp. */
  clock: Clock;
}
