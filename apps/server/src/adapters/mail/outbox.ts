import type pg from 'pg';
import type { MailPort, OutgoingMessage } from './port.ts';

/** Records a message in `mail_outbox`; `sentAt` marks one that an adapter has already delivered. */
export async function recordOutgoing(
  db: pg.Pool,
  channel: 'email' | 'sms',
  message: OutgoingMessage,
  sentAt: Date | null = null,
): Promise<void> {
  await db.query(
    `insert into mail_outbox (channel, recipient, subject, body, reply_to, sent_at) values ($1, $2, $3, $4, $5, $6)`,
    [channel, message.to, message.subject, message.text, message.replyTo ?? null, sentAt],
  );
}

/** Default mail adapter: keeps every message in the outbox table, readable through the dev inbox. */
export function createOutboxMail(db: pg.Pool): MailPort {
  return { send: (message) => recordOutgoing(db, 'email', message) };
}
