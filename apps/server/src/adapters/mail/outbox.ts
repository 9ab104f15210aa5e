import type { OutboxMessage } from '@exchange/shared';
import type pg from 'pg';
import { decrypt, encrypt, type ServerKeys } from '../../modules/identity/crypto.ts';
import { insertOutboxRow, purgeOld, takeNewest } from './outbox-repository.ts';
import { fillSecret, type MailPort, type OutgoingMessage, SECRET_SLOT } from './port.ts';

/**
 * How the outbox keeps a message's secret: `keys` only for the development outbox (DEV_TOOLS on, no SMTP),
 * where the secret is sealed with the server key until the outbox API shows it once; without, it is not kept.
 */
export interface OutboxOptions {
  keys?: ServerKeys;
  /** The moment an adapter delivered the message; null for a message only the outbox holds. */
  sentAt?: Date | null;
  /** Queued for the SMTP sender (its secret sealed with `keys` until delivered). */
  queued?: boolean;
  /** The provider's id of the delivered message (an SMS provider's message SID). */
  providerRef?: string;
}

/**
 * Records a message in `mail_outbox` as its template (the slot where its secret went, never the secret), with
 * the secret sealed beside it only when `options.keys` is given.
 */
export async function recordOutgoing(
  db: pg.Pool,
  channel: 'email' | 'sms',
  message: OutgoingMessage,
  options: OutboxOptions = {},
): Promise<void> {
  const sealed = message.secret && options.keys ? encrypt(options.keys, message.secret) : null;
  await insertOutboxRow(db, {
    channel,
    recipient: message.to,
    template: message.template,
    subject: message.subject,
    body: message.text,
    replyTo: message.replyTo ?? null,
    sentAt: options.sentAt ?? null,
    secretEnc: sealed,
    queued: options.queued === true,
    providerRef: options.providerRef ?? null,
  });
}

/** Default mail adapter: keeps every message in the outbox table, readable through the dev inbox. */
export function createOutboxMail(db: pg.Pool, keys?: ServerKeys): MailPort {
  return { send: (message) => recordOutgoing(db, 'email', message, { keys }) };
}

/**
 * The newest messages (to one recipient, or all), each secret shown once: the same statement that reads a
 * sealed secret clears it (rows locked, so two readers at once never both get it), and later reads show
 * {@link REDACTED} in its place.
 */
export async function readOutbox(
  db: pg.Pool,
  keys: ServerKeys,
  query: { to?: string; limit: number },
  /**
   * The texts a provider delivered, by its message ids, each given once (the SMS simulator's phone inbox): a
   * message kept without its secret but with a provider id gets its secret back from the delivered text.
   */
  delivered?: (refs: string[]) => Promise<Map<string, string>>,
): Promise<OutboxMessage[]> {
  const rows = await takeNewest(db, query.to ?? null, query.limit);
  const refs = rows.flatMap((row) => (row.provider_ref && !row.secret_enc ? [row.provider_ref] : []));
  const texts = delivered && refs.length > 0 ? await delivered(refs) : new Map<string, string>();
  return rows.map((row) => {
    const text = row.provider_ref ? texts.get(row.provider_ref) : undefined;
    const secret = row.secret_enc
      ? decrypt(keys, row.secret_enc)
      : text !== undefined
        ? secretIn(row.body, text)
        : null;
    return {
      id: row.id,
      channel: row.channel,
      to: row.to,
      template: row.template,
      subject: fillSecret(row.subject, secret),
      body: fillSecret(row.body, secret),
      secret,
      created_at: row.created_at.toISOString(),
    };
  });
}

/**
 * The secret a delivered text carries where its kept template has the slot (null when the text does not follow
 * the template): the template's other parts must match the text exactly.
 */
export function secretIn(template: string, text: string): string | null {
  const parts = template.split(SECRET_SLOT);
  if (parts.length < 2) return null;
  const literal = (part: string) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = parts.map(literal).reduce((re, part, i) => `${re}${i === 1 ? '(.+?)' : '\\1'}${part}`);
  return new RegExp(`^${pattern}$`, 's').exec(text)?.[1] ?? null;
}

/**
 * The retention of the outbox: messages older than `retentionDays` are deleted, and a secret nobody read is
 * dropped after `secretHours` (every code and link it could be has expired by then).
 * @returns how many messages were deleted.
 */
export function purgeOutbox(db: pg.Pool, retentionDays: number, secretHours = 1): Promise<number> {
  return purgeOld(db, retentionDays, secretHours);
}
