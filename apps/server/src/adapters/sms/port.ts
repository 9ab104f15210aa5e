import type pg from 'pg';
import type { ServerKeys } from '../../modules/identity/crypto.ts';
import { recordOutgoing } from '../mail/outbox.ts';
import type { MessageTemplate } from '../mail/port.ts';
import type { SimulatedInbox } from '../simulated-inbox.ts';

/** A text message: `text` holds the mail port's `SECRET_SLOT` where `secret` goes (see `withSecret`). */
export interface SmsMessage {
  /** Digits with country code, no plus. */
  to: string;
  template: MessageTemplate;
  text: string;
  secret?: string;
}

/** Sends a text message to a phone number. */
export interface SmsPort {
  send(message: SmsMessage): Promise<void>;
}

/**
 * Default SMS adapter: keeps messages in the outbox table, readable through the dev inbox; the secret is kept
 * (sealed, until read once) only with `keys`, i.e. when the developer tools are on.
 */
export function createOutboxSms(db: pg.Pool, keys?: ServerKeys): SmsPort {
  return { send: (message) => recordOutgoing(db, 'sms', { ...message, subject: '' }, { keys }) };
}

/** The SMS simulator's phone inbox: delivered texts by message SID, each once. */
export type SmsInbox = SimulatedInbox;

/** The provider refused the message (a 4xx other than 429): sending it again would be refused again. */
export class SmsRejected extends Error {
  constructor(
    /** The provider's error code, e.g. Twilio's 21211 (invalid 'To'), 21610 (unsubscribed recipient). */
    readonly code: number,
    readonly status: number,
    message: string,
    /** Refused for the recipient's number (not valid, not reachable, unsubscribed): another number may do. */
    readonly recipient = false,
  ) {
    super(`SMS refused (${code}): ${message}`);
    this.name = 'SmsRejected';
  }
}

/** The provider could not take the message now (429, 5xx, no answer), after every attempt. */
export class SmsUnavailable extends Error {
  constructor(
    readonly status: number | null,
    /** The provider's error code when it gave one (Twilio's 20429: too many requests). */
    readonly code: number | null,
    message: string,
  ) {
    super(`SMS provider unavailable: ${message}`);
    this.name = 'SmsUnavailable';
  }
}

/**
 * How the provider's status callbacks (Twilio's StatusCallback requests) are checked: the account's auth token they
 * are signed with, and the URL they are signed for — the StatusCallback URL the messages were sent with, or null
 * when it is the address the request came to (the SMS simulator's, which posts to the app's own address).
 */
export interface SmsStatusWebhook {
  authToken: string;
  url: string | null;
}
