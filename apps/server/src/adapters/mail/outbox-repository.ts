import type pg from 'pg';
import type { NoRows } from '../../db/pool.ts';

/**
 * The SQL of `mail_outbox`: the development outbox's records and the SMTP send queue's claims. The queue's
 * retry times and the purge are measured on the database's clock (`now()`), the stamps being the database's.
 */

/** A row to insert: the message as its template, its secret sealed or absent. */
export interface OutboxRow {
  channel: 'email' | 'sms';
  recipient: string;
  template: string;
  subject: string;
  body: string;
  replyTo: string | null;
  sentAt: Date | null;
  secretEnc: string | null;
  /** For the SMTP sender: due at once. */
  queued: boolean;
  providerRef: string | null;
}

export async function insertOutboxRow(db: pg.Pool, row: OutboxRow): Promise<void> {
  await db.query(
    `insert into mail_outbox (channel, recipient, template, subject, body, reply_to, sent_at, secret_enc, queued,
       next_attempt_at, provider_ref)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, case when $9 then now() end, $10)`,
    [
      row.channel,
      row.recipient,
      row.template,
      row.subject,
      row.body,
      row.replyTo,
      row.sentAt,
      row.secretEnc,
      row.queued,
      row.providerRef,
    ],
  );
}

/** A message as the outbox shows it, with the sealed secret it gave up (null when it had none or gave it before). */
export interface OutboxShown {
  id: string;
  channel: 'email' | 'sms';
  to: string;
  template: string;
  subject: string;
  body: string;
  created_at: Date;
  provider_ref: string | null;
  secret_enc: string | null;
}

/**
 * The newest `limit` messages (to `to`, or all), each sealed secret taken in the same statement that reads it
 * (rows locked, so two readers at once never both get it); messages still queued for SMTP keep theirs.
 */
export async function takeNewest(db: pg.Pool, to: string | null, limit: number): Promise<OutboxShown[]> {
  const rows = await db.query<OutboxShown>(
    `with picked as (
       select id from mail_outbox where $1::text is null or lower(recipient) = lower($1) order by id desc limit $2
     ), taken as (
       update mail_outbox m set secret_enc = null
         from (select id, secret_enc from mail_outbox
                where id in (select id from picked) and secret_enc is not null and not queued for update) sealed
        where m.id = sealed.id
       returning m.id, sealed.secret_enc
     )
     select o.id::text, o.channel, o.recipient as "to", o.template, o.subject, o.body, o.created_at,
            o.provider_ref, taken.secret_enc
       from mail_outbox o join picked using (id) left join taken using (id)
      order by o.id desc`,
    [to, limit],
  );
  return rows.rows;
}

/** Drops secrets older than `secretHours` and deletes messages older than `retentionDays`; how many were deleted. */
export async function purgeOld(db: pg.Pool, retentionDays: number, secretHours: number): Promise<number> {
  await db.query(
    `update mail_outbox set secret_enc = null
      where secret_enc is not null and created_at < now() - make_interval(hours => $1)`,
    [secretHours],
  );
  const deleted = await db.query<NoRows>(
    'delete from mail_outbox where created_at < now() - make_interval(days => $1)',
    [retentionDays],
  );
  return deleted.rowCount ?? 0;
}

/** A queued message claimed for one delivery attempt. */
export interface QueuedMail {
  id: string;
  recipient: string;
  subject: string;
  body: string;
  reply_to: string | null;
  secret_enc: string | null;
  attempts: number;
}

/** Milliseconds until the next queued message falls due (negative when overdue), or null when none is queued. */
export async function msUntilNextDue(db: pg.Pool): Promise<number | null> {
  const row = (
    await db.query<{ ms: string | null }>(
      `select extract(epoch from (select min(next_attempt_at) from mail_outbox where queued) - now()) * 1000 as ms`,
    )
  ).rows[0];
  return row?.ms === null || row?.ms === undefined ? null : Number(row.ms);
}

/**
 * Claims the oldest due message (skipping any another sender holds), counting the attempt and setting the next
 * one 2, 4 … 256, then 300 s later in case this one fails.
 */
export async function claimNextDue(db: pg.Pool): Promise<QueuedMail | undefined> {
  const claimed = await db.query<QueuedMail>(
    `update mail_outbox set attempts = attempts + 1,
       next_attempt_at = now() + make_interval(secs => least(power(2, attempts + 1), 300)::int)
     where id = (select id from mail_outbox where queued and next_attempt_at <= now()
                 order by id limit 1 for update skip locked)
     returning id::text, recipient, subject, body, reply_to, secret_enc, attempts`,
  );
  return claimed.rows[0];
}

/** Delivered: off the queue, stamped with the Message-ID the mail server took it under, its secret dropped. */
export async function markSent(db: pg.Pool, id: string, messageId: string | null): Promise<void> {
  await db.query(
    `update mail_outbox set queued = false, sent_at = now(), secret_enc = null, error = null,
       provider_ref = coalesce($2, provider_ref) where id = $1`,
    [id, messageId],
  );
}

/** Given up on: a dead letter with its last error, its secret dropped. */
export async function markDead(db: pg.Pool, id: string, error: string): Promise<void> {
  await db.query(
    'update mail_outbox set queued = false, dead_at = now(), secret_enc = null, error = $2 where id = $1',
    [id, error],
  );
}

/**
 * Whether a queued message waits for its first attempt's outcome: not claimed yet, or claimed by a sender (of any
 * process: counted, its next attempt set ahead) with neither a delivery nor an error recorded.
 */
export async function firstAttemptPending(db: pg.Pool): Promise<boolean> {
  const row = (
    await db.query<{ busy: boolean }>(
      `select exists (select 1 from mail_outbox
                       where queued and (attempts = 0 or (attempts = 1 and error is null and next_attempt_at > now())))
                as busy`,
    )
  ).rows[0];
  return row?.busy === true;
}

/** A failed attempt's error, kept until the next one. */
export async function recordAttemptError(db: pg.Pool, id: string, error: string): Promise<void> {
  await db.query('update mail_outbox set error = $2 where id = $1', [id, error]);
}
