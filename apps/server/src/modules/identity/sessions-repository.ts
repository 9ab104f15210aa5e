import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';
import type { SessionLiveness } from './sessions.ts';
import { isoSql } from './users-repository.ts';

type Db = pg.Pool | Tx;

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

/** Why a session ended: see `sessions.end_reason` (migration 0037). */
export type SessionEndReason = 'logout' | 'user' | 'others' | 'staff' | 'idle' | 'expired' | 'password';

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
    db.query(
      `select id, public_id::text, ip, user_agent, ${isoSql('created_at')} as created_at,
              ${isoSql('last_seen_at')} as last_seen_at, ${isoSql('expires_at')} as expires_at
         from sessions where ${where} order by created_at desc, id limit $3 offset $4`,
      [userId, idleMinutes, limit, (page - 1) * limit, now],
    ),
    db.query(`select count(*)::int as n from sessions where ${where.replaceAll('$5', '$3')}`, [
      userId,
      idleMinutes,
      now,
    ]),
  ]);
  return { rows: rows.rows as SessionRow[], total: count.rows[0].n as number };
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
  const row = (
    await db.query(
      `update sessions set revoked_at = $5, end_reason = $4
        where public_id = $3::uuid and user_id = $1 and ${live('$2', '$5')}
        returning id, public_id::text, ip, user_agent, ${isoSql('created_at')} as created_at,
                  ${isoSql('last_seen_at')} as last_seen_at, ${isoSql('expires_at')} as expires_at`,
      [userId, idleMinutes, publicId, reason, now],
    )
  ).rows[0];
  return row as SessionRow | undefined;
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
  const rows = await db.query(
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
  const result = await db.query(
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
    await db.query(
      `select exists(select 1 from activities where user_id = $1 and action = 'login' and result = 'succeed') as any,
              exists(select 1 from activities where user_id = $1 and action = 'login' and result = 'succeed'
                       and (data->>'device' = $2 or ($3::text is not null and user_agent = $3))) as seen`,
      [userId, deviceKey, userAgent],
    )
  ).rows[0];
  return { anyLogin: Boolean(row.any), seen: Boolean(row.seen) };
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
    await db.query(
      `select exists(select 1 from activities where user_id = $1 and action = 'login' and result = 'succeed'
                       and data->>'country' is not null) as any,
              exists(select 1 from activities where user_id = $1 and action = 'login' and result = 'succeed'
                       and data->>'country' = $2) as seen`,
      [userId, country],
    )
  ).rows[0];
  return { anyCountry: Boolean(row.any), seen: Boolean(row.seen) };
}
