import type pg from 'pg';
import type { NoRows, SelectOne, Tx } from '../../db/pool.ts';
import { isoSql } from './users-repository.ts';

type Db = pg.Pool | Tx;

/**
 * What makes a session live at a moment: not ended, `now` before its end, and seen within `idleMinutes` of `now`
 * (the app's clock, so a test moves a session past its idle timeout by moving the clock).
 */
export interface SessionLiveness {
  idleMinutes: number;
  now: Date;
}

/** A live session row as the Devices list needs it. */
export interface SessionRow {
  /** The primary key (SHA-256 of the cookie token): server-side only. */
  id: string;
  public_id: string;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

/** Why a session ended: see `sessions.end_reason` (migration 0037); `closure` when its account was closed. */
export type SessionEndReason =
  | 'logout'
  | 'user'
  | 'others'
  | 'staff'
  | 'idle'
  | 'expired'
  | 'password'
  | 'closure';

/** A live session as the auth hook reads it, with how long it has been idle and how long it has left. */
export interface LiveSessionRow {
  user_id: string;
  csrf_token: string;
  user_agent: string | null;
  idle_ms: number;
  left_ms: number;
}

/**
 * Starts a session at `at` under its id (the SHA-256 of the cookie token), ending `maxHours` later at the latest.
 */
export async function insertSession(
  db: Db,
  session: { id: string; userId: string; csrfToken: string; ip: string; userAgent: string | null },
  maxHours: number,
  at: Date,
): Promise<void> {
  await db.query(
    `insert into sessions (id, user_id, csrf_token, ip, user_agent, created_at, last_seen_at, expires_at)
       values ($1, $2, $3, $4, $5, $7, $7, $7::timestamptz + make_interval(hours => $6))`,
    [session.id, session.userId, session.csrfToken, session.ip, session.userAgent, maxHours, at],
  );
}

/**
 * The session with this id if it is live at `now` (`rows[0]`, or no row). On the path of every request whose
 * session is not cached: it hands back the driver's promise, so the caller awaits the query itself.
 */
export function readLiveSession(
  db: Db,
  id: string,
  idleMinutes: number,
  now: Date,
): Promise<pg.QueryResult<LiveSessionRow>> {
  return db.query<LiveSessionRow>(
    `select user_id, csrf_token, user_agent, (extract(epoch from $3 - last_seen_at) * 1000)::float8 as idle_ms,
                (extract(epoch from expires_at - $3) * 1000)::float8 as left_ms
           from sessions
          where id = $1 and revoked_at is null and expires_at > $3
            and last_seen_at > $3::timestamptz - make_interval(mins => $2)`,
    [id, idleMinutes, now],
  );
}

/**
 * Marks a session seen at `at` unless it has ended. On the request path (at most once a minute per session): it
 * hands back the driver's promise, so the caller awaits the query itself.
 */
export function touchSession(db: Db, id: string, at: Date): Promise<pg.QueryResult> {
  return db.query<NoRows>('update sessions set last_seen_at = $2 where id = $1 and revoked_at is null', [
    id,
    at,
  ]);
}

/** Ends one session at `at` (logout), unless it has ended already. */
export async function revokeSession(db: Db, id: string, at: Date): Promise<void> {
  await db.query(
    `update sessions set revoked_at = $2, end_reason = 'logout' where id = $1 and revoked_at is null`,
    [id, at],
  );
}

/** Ends at `at` every session of the user not ended yet, except `exceptId` (none kept when null), for `reason`. */
export async function revokeSessionsOf(
  db: Db,
  userId: string,
  exceptId: string | null,
  reason: SessionEndReason,
  at: Date,
): Promise<void> {
  await db.query(
    `update sessions set revoked_at = $4, end_reason = $3
        where user_id = $1 and revoked_at is null and id is distinct from $2`,
    [userId, exceptId, reason, at],
  );
}

/** Records that the session passed a two-factor check at `at` (a phone change's first step). */
export async function markOtpVerified(db: Db, id: string, at: Date): Promise<void> {
  await db.query('update sessions set otp_verified_at = $2 where id = $1', [id, at]);
}

/** True when the session passed a two-factor check less than `minutes` before `now`. */
export async function otpVerifiedWithin(db: Db, id: string, minutes: number, now: Date): Promise<boolean> {
  const row = await db.query<SelectOne>(
    `select 1 from sessions where id = $1 and otp_verified_at > $3::timestamptz - make_interval(mins => $2)`,
    [id, minutes, now],
  );
  return row.rowCount === 1;
}

/** The condition of a live session at `$now`: not ended, within its lifetime and not idle past `$idle` minutes. */
const live = (idleParam: string, nowParam: string) =>
  `revoked_at is null and expires_at > ${nowParam}
   and last_seen_at > ${nowParam}::timestamptz - make_interval(mins => ${idleParam})`;

/** A public id in the shape `gen_random_uuid()` makes; anything else matches no session (and is not sent to SQL). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The user's live sessions, newest first, one page of them, and how many there are. */
export async function listLiveSessions(
  db: Db,
  userId: string,
  { idleMinutes, now }: SessionLiveness,
  page: number,
  limit: number,
): Promise<{ rows: SessionRow[]; total: number }> {
  const where = `user_id = $1 and ${live('$2', '$5')}`;
  const [rows, count] = await Promise.all([
    db.query<SessionRow>(
      `select id, public_id::text, ip, user_agent, ${isoSql('created_at')} as created_at,
              ${isoSql('last_seen_at')} as last_seen_at, ${isoSql('expires_at')} as expires_at
         from sessions where ${where} order by created_at desc, id limit $3 offset $4`,
      [userId, idleMinutes, limit, (page - 1) * limit, now],
    ),
    db.query<{ n: number }>(`select count(*)::int as n from sessions where ${where.replaceAll('$5', '$3')}`, [
      userId,
      idleMinutes,
      now,
    ]),
  ]);
  return { rows: rows.rows, total: count.rows[0]!.n };
}

/**
 * Ends one live session of the user named by its public id, unless it is `keepId`; returns what it ended, or
 * undefined when the user has no such live session (another user's id finds nothing: the user is in the WHERE).
 * The `revoked_at` change announces itself to every process (migration 0030).
 */
export async function endSessionByPublicId(
  db: Db,
  userId: string,
  publicId: string,
  { idleMinutes, now }: SessionLiveness,
  reason: SessionEndReason,
): Promise<SessionRow | undefined> {
  if (!UUID.test(publicId)) return undefined;
  return (
    await db.query<SessionRow>(
      `update sessions set revoked_at = $5, end_reason = $4
        where public_id = $3::uuid and user_id = $1 and ${live('$2', '$5')}
        returning id, public_id::text, ip, user_agent, ${isoSql('created_at')} as created_at,
                  ${isoSql('last_seen_at')} as last_seen_at, ${isoSql('expires_at')} as expires_at`,
      [userId, idleMinutes, publicId, reason, now],
    )
  ).rows[0];
}

/**
 * Ends every live session of the user except `keepId` (none kept when null); returns the ended ids. Sessions
 * already idle or expired are left to the sweep, which records their end with its own reason.
 */
export async function endUserSessions(
  db: Db,
  userId: string,
  keepId: string | null,
  { idleMinutes, now }: SessionLiveness,
  reason: SessionEndReason,
): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `update sessions set revoked_at = $5, end_reason = $3
      where user_id = $1 and id is distinct from $2 and ${live('$4', '$5')}
      returning id`,
    [userId, keepId, reason, idleMinutes, now],
  );
  return rows.rows.map((r) => String(r.id));
}

/**
 * Records the end of sessions that went idle or passed their lifetime, at most `batch` of them, in one statement:
 * each is marked ended (`end_reason` idle or expired) and gets a `session.end` entry in its owner's security log,
 * with the address and agent it last had. A session already marked is never recorded again. Returns how many.
 */
export async function sweepEndedSessions(
  db: Db,
  { idleMinutes, now }: SessionLiveness,
  batch: number,
): Promise<number> {
  const result = await db.query<NoRows>(
    `with due as (
       select id from sessions
        where revoked_at is null
          and (expires_at <= $3 or last_seen_at <= $3::timestamptz - make_interval(mins => $1))
        order by last_seen_at limit $2
        for update skip locked
     ), ended as (
       update sessions s set revoked_at = $3,
              end_reason = case when s.expires_at <= $3 then 'expired' else 'idle' end
         from due where s.id = due.id
       returning s.user_id, s.public_id, s.ip, s.user_agent, s.end_reason
     )
     insert into activities (user_id, action, result, topic, ip, user_agent, data)
     select user_id, 'session.end', 'succeed', 'session', ip, user_agent,
            jsonb_build_object('reason', end_reason, 'session', public_id::text)
       from ended`,
    [idleMinutes, batch, now],
  );
  return result.rowCount ?? 0;
}

/**
 * Whether this device was seen at an earlier successful login of the user: a login whose recorded device key is
 * the same, or (for logins recorded before device keys, migration 0037) whose user agent is the very same text.
 * Also whether there was any earlier successful login at all.
 */
export async function knownDevice(
  db: Db,
  userId: string,
  deviceKey: string,
  userAgent: string | null,
): Promise<{ anyLogin: boolean; seen: boolean }> {
  const row = (
    await db.query<{ any: boolean; seen: boolean }>(
      `select exists(select 1 from activities where user_id = $1 and action = 'login' and result = 'succeed') as any,
              exists(select 1 from activities where user_id = $1 and action = 'login' and result = 'succeed'
                       and (data->>'device' = $2 or ($3::text is not null and user_agent = $3))) as seen`,
      [userId, deviceKey, userAgent],
    )
  ).rows[0];
  return { anyLogin: Boolean(row!.any), seen: Boolean(row!.seen) };
}

/**
 * Whether the user's earlier successful logins were made from `country` (their `data.country`), and whether any
 * of them has a country recorded at all: logins from before GEOIP_COUNTRY_DB was set, or from addresses without a
 * country, give no baseline, so they make no country new.
 */
export async function knownCountry(
  db: Db,
  userId: string,
  country: string,
): Promise<{ anyCountry: boolean; seen: boolean }> {
  const row = (
    await db.query<{ any: boolean; seen: boolean }>(
      `select exists(select 1 from activities where user_id = $1 and action = 'login' and result = 'succeed'
                       and data->>'country' is not null) as any,
              exists(select 1 from activities where user_id = $1 and action = 'login' and result = 'succeed'
                       and data->>'country' = $2) as seen`,
      [userId, country],
    )
  ).rows[0];
  return { anyCountry: Boolean(row!.any), seen: Boolean(row!.seen) };
}
