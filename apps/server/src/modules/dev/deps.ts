import type pg from 'pg';
import type { MailInbox } from '../../adapters/mail/simulator-mailbox.ts';
import type { SmsInbox } from '../../adapters/sms/port.ts';
import type { ServerKeys } from '../../modules/identity/crypto.ts';

/**
 * What the dev module's routes use, and nothing more: the app passes its whole dependency set, which has these
 * members among others, so the routes do not import the app (no import circle) and say what they touch.
 */
export interface DevRouteDeps {
  /** The database pool. */
  db: pg.Pool;
  /** The server's secrets (encryption and signing keys). */
  keys: ServerKeys;
  /** The SMS simulator's phone inbox, where the codes of texts sent through it are read (once). */
  smsInbox?: SmsInbox;
  /** The mail simulator's mailbox, where the texts of mails delivered to it are read (once). */
  mailInbox?: MailInbox;
  /** Delivers the mail queued so far, so that the outbox shows what a request just sent. */
  flushMail?: () => Promise<void>;
}
