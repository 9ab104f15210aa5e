import type pg from 'pg';
import type { NoRows, SelectOne } from '../../db/pool.ts';

/**
 * How far along a text's delivery status is (Twilio's message statuses): it only moves forward, so a callback that
 * arrives late or twice changes nothing. The ends (delivered, undelivered, failed, canceled) are one step: the first
 * one reported stays; only a read receipt comes after them.
 */
export const SMS_STATUS_RANK: Record<string, number> = {
  accepted: 1,
  scheduled: 1,
  queued: 1,
  sending: 2,
  sent: 3,
  delivered: 4,
  undelivered: 4,
  failed: 4,
  canceled: 4,
  partially_delivered: 4,
  read: 5,
};

/** The rank of a stored status, in SQL (see {@link SMS_STATUS_RANK}); 0 when none is stored. */
const STORED_RANK = `case delivery_status ${Object.entries(SMS_STATUS_RANK)
  .map(([status, rank]) => `when '${status}' then ${rank}`)
  .join(' ')} else 0 end`;

/** What became of a status report: recorded, older than what is kept (nothing changed), or no such text. */
export type SmsStatusOutcome = 'recorded' | 'stale' | 'unknown';

/**
 * Records a text's delivery status (and the provider's error code) on its outbox record, found by the provider's
 * message id, unless the record already holds that status or a later one.
 */
export async function recordSmsStatus(
  db: pg.Pool,
  report: { providerRef: string; status: string; errorCode: number | null; at: Date },
): Promise<SmsStatusOutcome> {
  const rank = SMS_STATUS_RANK[report.status];
  if (rank === undefined) return 'stale';
  // The rank is checked by the update itself: a report racing another waits for it and compares with what it wrote.
  const updated = await db.query<NoRows>(
    `update mail_outbox set delivery_status = $2, delivery_error_code = $3, delivery_updated_at = $4
      where channel = 'sms' and provider_ref = $1 and ${STORED_RANK} < $5`,
    [report.providerRef, report.status, report.errorCode, report.at, rank],
  );
  if ((updated.rowCount ?? 0) > 0) return 'recorded';
  const known = await db.query<SelectOne>(
    `select 1 from mail_outbox where channel = 'sms' and provider_ref = $1 limit 1`,
    [report.providerRef],
  );
  return known.rows.length > 0 ? 'stale' : 'unknown';
}
