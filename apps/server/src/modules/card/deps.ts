import type pg from 'pg';
import type { CardSimulator } from '../../adapters/simulators.ts';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { AuthDeps } from '../../http/auth.ts';
import type { Cards } from '../../modules/card/index.ts';

/**
 * What the card module's routes use, and nothing more: the app passes its whole dependency set, which has these
 * members among others, so the routes do not import the app (no import circle) and say what they touch.
 */
export interface CardRouteDeps extends AuthDeps {
  /** The app's clock (clock.ts): the time rules of this module are measured on it. */
  clock: Clock;
  /** The configuration. */
  config: Config;
  /** The database pool. */
  db: pg.Pool;
  /** The card suite. */
  cards: Cards;
  /** The issuer simulator, when it is the issuer: the development routes drive its card network. */
  cardSimulator?: Pick<CardSimulator, 'delivery' | 'network'>;
}
