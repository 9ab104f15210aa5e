import type pg from 'pg';
import type { UserRecord } from './users-repository.ts';

/** An active user a token names, with the address restriction of the API key it was issued for (if any). */
export type TokenUserRow = UserRecord & { key_allowed_ips: string[] | null };

/**
 * The active user with public id `uid` while what its token was issued for stands at `now`: the session `sid`
 * live (not ended, not past its end, seen within `idleMinutes`) or the API key `kid` active with two-factor on
 * (`rows[0]`, or no row). On the path of every request carrying a token: it hands back the driver's promise, so
 * the caller awaits the query itself.
 */
export function userOfToken(
  db: pg.Pool,
  uid: string,
  sid: string | null,
  kid: string | null,
  idleMinutes: number,
  now: Date,
): Promise<pg.QueryResult<TokenUserRow>> {
  return db.query<TokenUserRow>(
    `select u.*, (select k.allowed_ips from api_keys k where k.kid = $3) as key_allowed_ips
     from users u where u.uid = $1 and u.state = 'active' and (
       ($2::text is not null and exists (select 1 from sessions s where s.id = $2 and s.user_id = u.id
          and s.revoked_at is null and s.expires_at > $5
          and s.last_seen_at > $5::timestamptz - make_interval(mins => $4)))
       or ($3::text is not null and u.otp and exists (select 1 from api_keys k where k.kid = $3
          and k.user_id = u.id and k.state = 'active')))`,
    [uid, sid, kid, idleMinutes, now],
  );
}
