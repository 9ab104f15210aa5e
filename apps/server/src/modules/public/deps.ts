import type pg from 'pg';
import type { CaptchaPort } from '../../adapters/captcha/port.ts';
import type { Config } from '../../config.ts';
import type { Core } from '../../core/index.ts';

/**
 * What the public module's routes use, and nothing more: the app passes its whole dependency set, which has these
 * members among others, so the routes do not import the app (no import circle) and say what they touch.
 */
export interface PublicRouteDeps {
  /** The configuration. */
  config: Config;
  /** The database pool. */
  db: pg.Pool;
  /** The exchange core: the only way balances and orders change. */
  core: Core;
  /** The captcha check of public forms. */
  captcha: CaptchaPort;
}
