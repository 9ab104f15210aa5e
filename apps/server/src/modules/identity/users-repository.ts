import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';
import type { AccountType } from '../business/account-type.ts';

/** A users row with the columns identity needs. */
export interface UserRecord {
  id: string;
  uid: string;
  email: string;
  password_digest: string;
  role: string;
  level: number;
  state: string;
  /** Personal or business (migration 0040). */
  account_type: AccountType;
  otp: boolean;
  otp_secret_enc: string | null;
  otp_pending_secret_enc: string | null;
  otp_last_step: string;
  anti_phishing_phrase: string | null;
  /** Barong's free-form `data`: a JSON text the client keeps (BaseApp stores the language), or null. */
  data: string | null;
  created_at: Date;
  updated_at: Date;
}

type Db = pg.Pool | Tx;

/**
 * SQL that formats a timestamptz column as every entity shows times: ISO 8601 in UTC with milliseconds and `Z`
 * (`2026-05-01T09:30:00.123Z`, as JSON.stringify writes a Date), never PostgreSQL's `+00:00` form.
 */
export function isoSql(column: string): string {
  return `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** A label as Barong lists it (times as ISO 8601 text). */
export interface UserLabel {
  key: string;
  value: string;
  scope: string;
  created_at: string;
  updated_at: string;
}

/** The user's labels as Barong lists them (`GET /resource/labels`, and inside the user entity), oldest first. */
export async function userLabels(db: Db, userId: string): Promise<UserLabel[]> {
  const rows = await db.query<UserLabel>(
    `select key, value, scope, ${isoSql('created_at')} as created_at, ${isoSql('updated_at')} as updated_at
     from labels where user_id = $1 order by created_at, id`,
    [userId],
  );
  return rows.rows;
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRecord | undefined> {
  return (await db.query<UserRecord>('select * from users where lower(email) = lower($1)', [email])).rows[0];
}

/** The user whose most recent phone has this full number (country code and number, digits only). */
export async function findUserByPhone(db: Db, number: string): Promise<UserRecord | undefined> {
  return (
    await db.query<UserRecord>(
      `select u.* from users u join phones p on p.user_id = u.id where p.number = $1 order by p.validated_at nulls last limit 1`,
      [number],
    )
  ).rows[0];
}

/** Named, so each connection plans it once: it runs on every authenticated request. */
export async function findUserById(db: Db, id: string): Promise<UserRecord | undefined> {
  return (
    await db.query<UserRecord>({
      name: 'user-by-id',
      text: 'select * from users where id = $1',
      values: [id],
    })
  ).rows[0];
}

/**
 * Locks the account's row until the transaction ends (the lock order of changes that concern one account). Two
 * holders exclude each other; a row that only references the account (its foreign key takes `key share`) is not
 * held up, as `for update` would: a write of such a row outside the lock, waited on by the lock's holder, was a
 * deadlock (the provider's webhook applied while the token request stored the applicant id).
 */
export async function lockUser(tx: Tx, id: string): Promise<void> {
  await tx.query('select 1 from users where id = $1 for no key update', [id]);
}

/** The public uid of the account with row id `id`, or undefined. */
export async function uidOfUser(db: Db, id: string): Promise<string | undefined> {
  return (await db.query<{ uid: string }>('select uid from users where id = $1', [id])).rows[0]?.uid;
}

/** The row id of the account with public uid `uid`, or undefined. */
export async function userIdOfUid(db: Db, uid: string): Promise<string | undefined> {
  const row = (await db.query<{ id: string }>('select id from users where uid = $1', [uid])).rows[0];
  return row === undefined ? undefined : String(row.id);
}

/** Replaces the number (and the country, when known) of the account's latest phone: a pending account's change. */
export async function replaceLatestPhone(
  db: Db,
  userId: string,
  number: string,
  country: string | null,
): Promise<void> {
  await db.query(
    'update phones set number = $2, country = coalesce($3, country) where id = (select max(id) from phones where user_id = $1)',
    [userId, number, country],
  );
}

/** The latest phone of a user. */
export async function latestPhone(
  db: Db,
  userId: string,
): Promise<{ number: string; validated_at: Date | null } | undefined> {
  return (
    await db.query<{ number: string; validated_at: Date | null }>(
      'select number, validated_at from phones where user_id = $1 order by id desc limit 1',
      [userId],
    )
  ).rows[0];
}

/** Sets or replaces a label (e.g. email: verified). */
export async function setLabel(
  db: Db,
  userId: string,
  key: string,
  value: string,
  scope = 'private',
): Promise<void> {
  await db.query(
    `insert into labels (user_id, key, value, scope) values ($1, $2, $3, $4)
     on conflict (user_id, key, scope) do update set value = excluded.value, updated_at = now()`,
    [userId, key, value, scope],
  );
}

/** The user as Barong returns it: labels, phones and profiles included (docs/platform.md#wire-contract); one query. */
/** What the user entity shows beside the users row: labels, phones and profiles, as Barong lists them. */
export interface UserEntityExtras {
  labels: unknown[];
  phones: unknown[];
  profiles: unknown[];
}

/** Reads the {@link UserEntityExtras} of a user in one statement. */
export async function userEntityExtras(db: Db, userId: string): Promise<UserEntityExtras> {
  const row = (
    await db.query<UserEntityExtras>({
      name: 'user-entity',
      text: `select
         coalesce((select json_agg(json_build_object('key', key, 'value', value, 'scope', scope,
           'created_at', ${isoSql('created_at')}, 'updated_at', ${isoSql('updated_at')}) order by id)
           from labels where user_id = $1), '[]') as labels,
         coalesce((select json_agg(json_build_object('country', country, 'number', number,
           'validated_at', ${isoSql('validated_at')}) order by id) from phones where user_id = $1), '[]') as phones,
         coalesce((select json_agg(json_build_object('first_name', first_name, 'last_name', last_name, 'gender', gender,
           'dob', to_char(dob, 'YYYY-MM-DD'), 'address', address, 'postcode', postcode, 'city', city, 'country', country,
           'state', state, 'created_at', ${isoSql('created_at')}, 'updated_at', ${isoSql('updated_at')}) order by id)
           from profiles where user_id = $1), '[]') as profiles`,
      values: [userId],
    })
  ).rows[0]!;
  return { labels: row.labels, phones: row.phones, profiles: row.profiles };
}

/** The Barong user entity of `user` with its {@link UserEntityExtras}. */
export function presentUser(user: UserRecord, extras: UserEntityExtras) {
  return {
    /** The user's public id: the uid, so the sequential database id never leaves the server. */
    id: user.uid,
    email: user.email,
    uid: user.uid,
    role: user.role,
    level: user.level,
    otp: user.otp,
    state: user.state,
    account_type: user.account_type ?? 'personal',
    anti_phishing: Boolean(user.anti_phishing_phrase),
    data: user.data ?? null,
    labels: extras.labels,
    phones: extras.phones,
    profiles: extras.profiles,
    created_at: user.created_at,
    updated_at: user.updated_at,
  };
}

/** The Barong user entity, read now (see UserDirectory for the cached one). */
export async function userEntity(db: Db, user: UserRecord) {
  return presentUser(user, await userEntityExtras(db, user.id));
}

/** Records a security event: logins, failures and every security change. */
export async function recordActivity(
  db: Db,
  entry: {
    userId: string | null;
    action: string;
    result: 'succeed' | 'failed';
    /** Null for an entry no request made (a background job, a call from the command line). */
    ip: string | null;
    userAgent: string | null;
    topic?: string;
    data?: unknown;
    /**
     * When it happened, on the app's clock: given where a rule later counts these entries against that clock
     * (the PIN reveal's failures); the database's time otherwise.
     */
    at?: Date;
  },
): Promise<void> {
  await db.query(
    `insert into activities (user_id, action, result, topic, ip, user_agent, data, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, coalesce($8::timestamptz, now()))`,
    [
      entry.userId,
      entry.action,
      entry.result,
      entry.topic ?? 'session',
      entry.ip,
      entry.userAgent,
      entry.data ?? null,
      entry.at ?? null,
    ],
  );
}

/** Replaces the user's free-form `data` (Barong's `resource/users/me` update); the updated row. */
export async function setUserData(db: Db, userId: string, data: string): Promise<UserRecord> {
  const updated = await db.query<UserRecord>(
    'update users set data = $2, updated_at = now() where id = $1 returning *',
    [userId, data],
  );
  return updated.rows[0]!;
}

/** Sets (or with null clears) the user's anti-phishing phrase. */
export async function setAntiPhishingPhrase(db: Db, userId: string, phrase: string | null): Promise<void> {
  await db.query('update users set anti_phishing_phrase = $2, updated_at = now() where id = $1', [
    userId,
    phrase,
  ]);
}
