import type pg from 'pg';
import type { Config } from '../../config.ts';
import type { AuthDeps } from '../../http/auth.ts';
import type { JwtIssuer } from '../../modules/identity/jwt.ts';
import type { StreamHub } from '../../modules/ranger/hub.ts';

/**
 * What the ranger module's routes use, and nothing more: the app passes its whole dependency set, which has these
 * members among others, so the routes do not import the app (no import circle) and say what they touch.
 */
export interface RangerRouteDeps extends AuthDeps {
  /** The configuration. */
  config: Config;
  /** The database pool. */
  db: pg.Pool;
  /** The streams' subscriptions in this process. */
  hub: StreamHub;
  /** Barong's session JWTs. */
  jwt: JwtIssuer;
}
