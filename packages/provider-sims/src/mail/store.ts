import { hkdfSync, randomBytes } from 'node:crypto';
import type { MailSimulatorCredentials } from '@exchange/server/provider-kit';
import { openBytes, sealBytes } from '@exchange/server/provider-kit';
import type pg from 'pg';
import { storedCredentials } from '../credentials.ts';

/**
 * The mail simulator's table (`mailsim_messages`, provider-sims migration 0002): every message its SMTP server
 * accepted, one row per envelope recipient, its subject and text sealed with the simulator's key until the
 * developer's mailbox shows them once. It reads nothing of the exchange's tables.
 */

/** Loads the mail server's credentials (SMTP AUTH and the mailbox), made once per database and shared. */
export async function loadMailCredentials(db: pg.Pool): Promise<MailSimulatorCredentials> {
  const fresh: MailSimulatorCredentials = { user: 'exchange', password: randomBytes(16).toString('hex') };
  return storedCredentials<MailSimulatorCredentials>(db, 'mail_simulator', fresh);
}

/** The key message texts are sealed with at rest, derived from the account's password. */
export function mailKey(credentials: MailSimulatorCredentials): Buffer {
  return Buffer.from(hkdfSync('sha256', credentials.password, 'mail-simulator', 'message-texts', 32));
}

/** An accepted message, as the SMTP server hands it to the store. */
export interface AcceptedMail {
  messageId: string;
  from: string;
  recipients: string[];
  subject: string;
  text: string;
  sizeBytes: number;
}

/** A message nobody read within an hour loses its content (every code it could carry has expired by then). */
async function dropUnread(db: pg.Pool): Promise<void> {
  await db.query(
    `update mailsim_messages set content_sealed = null
      where content_sealed is not null and received_at < now() - interval '1 hour'`,
  );
}

/** Keeps an accepted message for each of its recipients, its subject and text sealed. */
export async function insertMail(db: pg.Pool, key: Buffer, mail: AcceptedMail): Promise<void> {
  await dropUnread(db);
  const content = JSON.stringify({ subject: mail.subject, text: mail.text });
  await db.query(
    `insert into mailsim_messages (message_id, mail_from, rcpt_to, content_sealed, text_length, size_bytes)
     select $1, $2, r, $3, $4, $5 from unnest($6::text[]) as r`,
    [
      mail.messageId,
      mail.from,
      sealBytes(key, Buffer.from(content, 'utf8')),
      mail.text.length,
      mail.sizeBytes,
      mail.recipients.map((r) => r.toLowerCase()),
    ],
  );
}

/** A message as the mailbox shows it: its subject and text on the one read that takes them, null after. */
export interface MailboxMessage {
  id: string;
  message_id: string;
  from: string;
  to: string;
  subject: string | null;
  text: string | null;
  received_at: Date;
}

/**
 * The newest messages to one address (or to any; or those with the given Message-IDs), each content shown once:
 * the statement that reads a sealed content clears it (rows locked, so two readers at once never both get it).
 */
export async function takeMailbox(
  db: pg.Pool,
  key: Buffer,
  query: { to?: string; messageIds?: string[]; limit: number },
): Promise<MailboxMessage[]> {
  await dropUnread(db);
  const rows = await db.query<Omit<MailboxMessage, 'text' | 'subject'> & { content_sealed: Buffer | null }>(
    `with picked as (
       select id from mailsim_messages
        where ($1::text is null or rcpt_to = lower($1)) and ($3::text[] is null or message_id = any($3))
        order by id desc limit $2
     ), taken as (
       update mailsim_messages m set content_sealed = null, shown_at = now()
         from (select id, content_sealed from mailsim_messages
                where id in (select id from picked) and content_sealed is not null for update) sealed
        where m.id = sealed.id
       returning m.id, sealed.content_sealed
     )
     select m.id::text, m.message_id, m.mail_from as "from", m.rcpt_to as "to", m.received_at,
            taken.content_sealed
       from mailsim_messages m join picked using (id) left join taken using (id)
      order by m.id desc`,
    [query.to ?? null, query.limit, query.messageIds ?? null],
  );
  return rows.rows.map(({ content_sealed, ...message }) => {
    const content = content_sealed
      ? (JSON.parse(openBytes(key, content_sealed).toString('utf8')) as { subject: string; text: string })
      : null;
    return { ...message, subject: content?.subject ?? null, text: content?.text ?? null };
  });
}
