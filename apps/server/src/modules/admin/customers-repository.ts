import type { adminUserDetailResponse, adminUserRowResponse } from '@exchange/shared';
import type pg from 'pg';
import type { z } from 'zod';
import type { Tx } from '../../db/pool.ts';
import { isoSql, type UserRecord } from '../identity/users-repository.ts';

/** The SQL of the console's customer pages and of the CLI's `user show`: what support sees of a user, and changes. */

type Db = pg.Pool | Tx;

/** A user of the console's search. */
export type AdminUserRow = z.infer<typeof adminUserRowResponse>;

type UserDetail = z.infer<typeof adminUserDetailResponse>;

/** What the console's user page lists besides the user's own row (the sessions with their whole ids). */
export interface SupportView {
  labels: UserDetail['labels'];
  phones: UserDetail['phones'];
  profiles: NonNullable<UserDetail['profile']>[];
  sessions: UserDetail['sessions'];
  apiKeys: UserDetail['api_keys'];
  balances: UserDetail['balances'];
  activity: UserDetail['activity'];
  orders: UserDetail['orders'];
  deposits: UserDetail['deposits'];
  withdrawals: UserDetail['withdrawals'];
}

/** What the CLI's `user show` prints besides the user's own row. */
export interface CliUserView {
  labels: UserDetail['labels'];
  phones: { country: string; number: string; validated_at: Date | null }[];
  profiles: { first_name: string | null; last_name: string | null; country: string | null }[];
  /** Every balance, zero ones too, in currency order. */
  balances: UserDetail['balances'];
}

/**
 * A page of the users whose email or uid matches the `like` pattern (any case), or one of whose phones does (all
 * users when the pattern is `%%`), newest first, with the number of users matching.
 */
export async function userSearchPage(
  db: pg.Pool,
  like: string,
  limit: number,
  offset: number,
): Promise<{ items: AdminUserRow[]; total: number }> {
  const where = `where $1 = '%%' or u.email ilike $1 or u.uid ilike $1
    or exists (select 1 from phones p where p.user_id = u.id and p.number like $1)`;
  const [rows, total] = await Promise.all([
    db.query<AdminUserRow>(
      `select u.uid, u.email, u.role, u.level, u.state, u.otp, ${isoSql('u.created_at')} as created_at
       from users u ${where} order by u.id desc limit $2 offset $3`,
      [like, limit, offset],
    ),
    db.query<{ n: number }>(`select count(*)::int as n from users u ${where}`, [like]),
  ]);
  return { items: rows.rows, total: total.rows[0]?.n ?? 0 };
}

/** The user with this public uid, or undefined. */
export async function findUserByUid(db: Db, uid: string): Promise<UserRecord | undefined> {
  return (await db.query<UserRecord>('select * from users where uid = $1', [uid])).rows[0];
}

/** The user's labels, by key. */
function labelsOf(db: Db, userId: string): Promise<UserDetail['labels']> {
  return rowsOf(db, 'select key, value, scope from labels where user_id = $1 order by key', userId);
}

/** The rows of a query whose only parameter is the user's id. */
async function rowsOf<T extends pg.QueryResultRow>(db: Db, sql: string, userId: string): Promise<T[]> {
  return (await db.query<T>(sql, [userId])).rows;
}

/**
 * Everything support sees of one user besides their row: labels, phones, profiles, open sessions at `now` (the
 * app's clock, on which sessions are stamped; newest first), API keys, non-zero balances, and the latest 20 of
 * their security log, orders, deposits and withdrawals.
 */
export async function supportView(db: pg.Pool, userId: string, now: Date): Promise<SupportView> {
  const [labels, phones, profiles, sessions, apiKeys, balances, activity, orders, deposits, withdrawals] =
    await Promise.all([
      labelsOf(db, userId),
      rowsOf<SupportView['phones'][number]>(
        db,
        `select country, number, ${isoSql('validated_at')} as validated_at from phones where user_id = $1`,
        userId,
      ),
      rowsOf<SupportView['profiles'][number]>(
        db,
        `select first_name, last_name, gender, dob::text, address, postcode, city, country, state
         from profiles where user_id = $1`,
        userId,
      ),
      db
        .query<SupportView['sessions'][number]>(
          `select id, ip, user_agent, ${isoSql('created_at')} as created_at, ${isoSql('last_seen_at')} as last_seen_at
           from sessions where user_id = $1 and revoked_at is null and expires_at > $2 order by created_at desc`,
          [userId, now],
        )
        .then((r) => r.rows),
      rowsOf<SupportView['apiKeys'][number]>(
        db,
        `select kid, state, ${isoSql('created_at')} as created_at from api_keys where user_id = $1 order by id`,
        userId,
      ),
      rowsOf<SupportView['balances'][number]>(
        db,
        `select currency_id as currency, trim_scale(balance)::text as balance, trim_scale(locked)::text as locked
         from balances where user_id = $1 and (balance <> 0 or locked <> 0) order by currency_id`,
        userId,
      ),
      rowsOf<SupportView['activity'][number]>(
        db,
        `select action, result, ip, ${isoSql('created_at')} as created_at from activities
         where user_id = $1 order by id desc limit 20`,
        userId,
      ),
      rowsOf<SupportView['orders'][number]>(
        db,
        `select id::int, market_id as market, side, ord_type, state, trim_scale(price)::text as price,
         trim_scale(origin_volume)::text as volume, ${isoSql('created_at')} as created_at
         from orders where user_id = $1 order by id desc limit 20`,
        userId,
      ),
      rowsOf<SupportView['deposits'][number]>(
        db,
        `select id::int, currency_id as currency, trim_scale(amount)::text as amount, state,
         ${isoSql('created_at')} as created_at from deposits where user_id = $1 order by id desc limit 20`,
        userId,
      ),
      rowsOf<SupportView['withdrawals'][number]>(
        db,
        `select id::int, currency_id as currency, trim_scale(amount)::text as amount, state,
         ${isoSql('created_at')} as created_at from withdrawals where user_id = $1 order by id desc limit 20`,
        userId,
      ),
    ]);
  return { labels, phones, profiles, sessions, apiKeys, balances, activity, orders, deposits, withdrawals };
}

/** What the CLI's `user show` prints of a user besides their row: labels, phones, profiles and every balance. */
export async function cliUserView(db: pg.Pool, userId: string): Promise<CliUserView> {
  const [labels, phones, profiles, balances] = await Promise.all([
    labelsOf(db, userId),
    rowsOf<CliUserView['phones'][number]>(
      db,
      'select country, number, validated_at from phones where user_id = $1',
      userId,
    ),
    rowsOf<CliUserView['profiles'][number]>(
      db,
      'select first_name, last_name, country from profiles where user_id = $1',
      userId,
    ),
    rowsOf<CliUserView['balances'][number]>(
      db,
      `select currency_id as currency, trim_scale(balance)::text as balance, trim_scale(locked)::text as locked
       from balances where user_id = $1 order by currency_id`,
      userId,
    ),
  ]);
  return { labels, phones, profiles, balances };
}

/** How many sessions of the user are open at `now` (the app's clock: not revoked, not expired). */
export async function countOpenSessions(db: Db, userId: string, now: Date): Promise<number> {
  const row = (
    await db.query<{ n: number }>(
      'select count(*)::int as n from sessions where user_id = $1 and revoked_at is null and expires_at > $2',
      [userId, now],
    )
  ).rows[0];
  return row?.n ?? 0;
}

/** Sets the account's state (`locked` or `active`), unless it is closed (`deleted`). */
export async function setUserState(db: Db, userId: string, state: 'locked' | 'active'): Promise<void> {
  await db.query(`update users set state = $2, updated_at = now() where id = $1 and state <> 'deleted'`, [
    userId,
    state,
  ]);
}

/** Turns the account's two-factor off: its secret and any pending one are dropped. */
export async function turnOffTwoFactor(db: Db, userId: string): Promise<void> {
  await db.query(
    `update users set otp = false, otp_secret_enc = null, otp_pending_secret_enc = null, updated_at = now()
     where id = $1`,
    [userId],
  );
}
