import type pg from 'pg';
import type { CaptchaPort } from '../../adapters/captcha/port.ts';
import type { MailPort } from '../../adapters/mail/port.ts';
import type { SmsPort } from '../../adapters/sms/port.ts';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { AuthDeps } from '../../http/auth.ts';
import type { ModuleLogger } from '../../log.ts';
import type { ServerKeys } from '../../modules/identity/crypto.ts';
import type { JwtIssuer } from '../../modules/identity/jwt.ts';
import type { CountryLookup } from '../../net/geo-country.ts';

/**
 * What the identity module's routes use, and nothing more: the app passes its whole dependency set, which has these
 * members among others, so the routes do not import the app (no import circle) and say what they touch.
 */
export interface IdentityRouteDeps extends AuthDeps {
  /** The app's clock (clock.ts): the time rules of this module are measured on it. */
  clock: Clock;
  /** The configuration. */
  config: Config;
  /** The database pool. */
  db: pg.Pool;
  /** The server's secrets (encryption and signing keys). */
  keys: ServerKeys;
  /** The captcha check of public forms. */
  captcha: CaptchaPort;
  /** Barong's session JWTs. */
  jwt: JwtIssuer;
  /** Outgoing mail. */
  mail: MailPort;
  /** Outgoing SMS. */
  sms: SmsPort;
  /** The process's logger. */
  logger: ModuleLogger;
  /** The country of a login's address. */
  geoCountry: CountryLookup;
}
