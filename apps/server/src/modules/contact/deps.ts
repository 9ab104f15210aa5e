import type { FastifyRequest } from 'fastify';
import type pg from 'pg';
import type { CaptchaPort } from '../../adapters/captcha/port.ts';
import type { MailPort } from '../../adapters/mail/port.ts';
import type { RequestUser } from '../../http/auth.ts';

/**
 * What the contact module's routes use, and nothing more: the app passes its whole dependency set, which has these
 * members among others, so the routes do not import the app (no import circle) and say what they touch.
 */
export interface ContactRouteDeps {
  /** The database pool. */
  db: pg.Pool;
  /** Outgoing mail. */
  mail: MailPort;
  /** The captcha check of public forms. */
  captcha: CaptchaPort;
  /** Where users write to. */
  supportEmail: string;
  /** Resolves the session's user, if any: the form works with or without one. */
  currentUser(request: FastifyRequest): Promise<RequestUser | null>;
}
