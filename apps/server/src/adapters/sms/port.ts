import type pg from 'pg';
import { recordOutgoing } from '../mail/outbox.ts';

/** Sends a text message to a phone number (digits with country code, no plus). */
export interface SmsPort {
  send(to: string, text: string): Promise<void>;
}

/** Default SMS adapter: keeps messages in the outbox table, readable through the dev inbox. */
export function createOutboxSms(db: pg.Pool): SmsPort {
  return { send: (to, text) => recordOutgoing(db, 'sms', { to, subject: '', text }) };
}
