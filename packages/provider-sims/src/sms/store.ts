import { hkdfSync, randomBytes } from 'node:crypto';
import type { SmsSimulatorCredentials } from '@exchange/server/provider-kit';
import { openBytes, sealBytes } from '@exchange/server/provider-kit';
import type pg from 'pg';
import { storedCredentials } from '../credentials.ts';

/**
 * The SMS simulator's tables (`smssim_messages`, migration 0053; `smssim_callbacks`, 0055, see callbacks.ts): every
 * message it accepted, its text sealed with
 * the simulator's key until the developer's phone inbox shows it once. It reads nothing of the exchange's tables.
 */

/** Twilio's magic sender of its test credentials: the number every simulated account owns. */
export const SIM_FROM_NUMBER = '+15005550006';

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** Loads the simulator's credentials, generating them once per database (the app and a standalone share them). */
export async function loadSmsCredentials(db: pg.Pool): Promise<SmsSimulatorCredentials> {
  const fresh: SmsSimulatorCredentials = {
    accountSid: `AC${hex(16)}`,
    authToken: hex(16),
    from: SIM_FROM_NUMBER,
    messagingServiceSid: `MG${hex(16)}`,
  };
  return storedCredentials<SmsSimulatorCredentials>(db, 'sms_simulator', fresh);
}

/** The key message texts are sealed with at rest, derived from the account's auth token. */
export function messageKey(credentials: SmsSimulatorCredentials): Buffer {
  return Buffer.from(hkdfSync('sha256', credentials.authToken, 'sms-simulator', 'message-bodies', 32));
}

/** A new message SID: SM and 32 hex digits. */
export const newMessageSid = () => `SM${hex(16)}`;

/** A stored message, as the API and the inbox read it (never its text). */
export interface SimMessage {
  sid: string;
  account_sid: string;
  to_number: string;
  from_number: string | null;
  messaging_service_sid: string | null;
  body_length: number;
  num_segments: number;
  created_at: Date;
  /** The database's time of the read, which the message's status is reckoned from. */
  now: Date;
}

/**
 * Keeps an accepted message, its text sealed, with its status callbacks (when it names a StatusCallback URL), each
 * due `afterSeconds` after the message's acceptance.
 */
export async function insertMessage(
  db: pg.Pool,
  key: Buffer,
  message: {
    sid: string;
    accountSid: string;
    to: string;
    from: string | null;
    messagingServiceSid: string | null;
    body: string;
    numSegments: number;
    statusCallback: string | null;
    callbacks: { status: string; payload: string; afterSeconds: number }[];
  },
): Promise<SimMessage> {
  // A text nobody read within an hour is dropped (every code it could carry has expired by then).
  await db.query(
    `update smssim_messages set body_sealed = null
      where body_sealed is not null and created_at < now() - interval '1 hour'`,
  );
  const row = (
    await db.query<SimMessage>(
      `with m as (
         insert into smssim_messages (sid, account_sid, to_number, from_number, messaging_service_sid, body_sealed,
           body_length, num_segments, status_callback)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         returning sid, account_sid, to_number, from_number, messaging_service_sid, body_length, num_segments,
                   created_at, status_callback
       ), callbacks as (
         insert into smssim_callbacks (sid, status, url, payload, next_attempt_at)
         select m.sid, c.status, m.status_callback, c.payload, m.created_at + make_interval(secs => c.after)
           from m, unnest($10::text[], $11::text[], $12::int[]) as c(status, payload, after)
          where m.status_callback is not null
       )
       select sid, account_sid, to_number, from_number, messaging_service_sid, body_length, num_segments,
              created_at, now() as now
         from m`,
      [
        message.sid,
        message.accountSid,
        message.to,
        message.from,
        message.messagingServiceSid,
        sealBytes(key, Buffer.from(message.body, 'utf8')),
        message.body.length,
        message.numSegments,
        message.statusCallback,
        message.callbacks.map((c) => c.status),
        message.callbacks.map((c) => c.payload),
        message.callbacks.map((c) => c.afterSeconds),
      ],
    )
  ).rows[0];
  if (!row) throw new Error('message not stored');
  return row;
}

/** One message of an account, without its text. */
export async function findMessage(
  db: pg.Pool,
  accountSid: string,
  sid: string,
): Promise<SimMessage | undefined> {
  return (
    await db.query<SimMessage>(
      `select sid, account_sid, to_number, from_number, messaging_service_sid, body_length, num_segments,
              created_at, now() as now
         from smssim_messages where account_sid = $1 and sid = $2`,
      [accountSid, sid],
    )
  ).rows[0];
}

/** A message as the phone shows it: its text on the one read that takes it, null before (none) and after. */
export interface InboxMessage extends SimMessage {
  body: string | null;
}

/**
 * The newest messages to a number (or to any; or those of `sids`), each text shown once: the statement that reads a sealed text
 * clears it (rows locked, so two readers at once never both get it).
 */
export async function takeInbox(
  db: pg.Pool,
  key: Buffer,
  query: { accountSid: string; to?: string; sids?: string[]; limit: number },
): Promise<InboxMessage[]> {
  const rows = await db.query<SimMessage & { body_sealed: Buffer | null }>(
    `with picked as (
       select sid from smssim_messages
        where account_sid = $1 and ($2::text is null or to_number = $2) and ($4::text[] is null or sid = any($4))
        order by created_at desc, sid limit $3
     ), taken as (
       update smssim_messages m set body_sealed = null, shown_at = now()
         from (select sid, body_sealed from smssim_messages
                where sid in (select sid from picked) and body_sealed is not null for update) sealed
        where m.sid = sealed.sid
       returning m.sid, sealed.body_sealed
     )
     select m.sid, m.account_sid, m.to_number, m.from_number, m.messaging_service_sid, m.body_length,
            m.num_segments, m.created_at, now() as now, taken.body_sealed
       from smssim_messages m join picked using (sid) left join taken using (sid)
      order by m.created_at desc, m.sid`,
    [query.accountSid, query.to ?? null, query.limit, query.sids ?? null],
  );
  return rows.rows.map(({ body_sealed, ...message }) => ({
    ...message,
    body: body_sealed ? openBytes(key, body_sealed).toString('utf8') : null,
  }));
}
