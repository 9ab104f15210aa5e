import type pg from 'pg';
import type { SelectOne, Tx } from '../../db/pool.ts';

type Db = pg.Pool | Tx;

/** What a one-time code authorises. */
export type CodePurpose =
  | 'register'
  | 'login'
  | 'password_reset'
  | 'phone_change'
  | 'email_confirm'
  /** `POST /resource/generate_code`: confirms a sensitive action of a signed-in user. */
  | 'sensitive_action';
/** Where a code is sent. */
export type CodeChannel = 'email' | 'sms';

/** One code to check: purpose, channel and destination identify the live code. */
export interface CodeTarget {
  purpose: CodePurpose;
  channel: CodeChannel;
  destination: string;
}

/** The live code of a target as issuing sees it: whether it was sent within the resend gap. */
export interface LiveCodeRow {
  id: string;
  recent: boolean;
}

/** The live code of a target as checking sees it: whether it is unexpired at the check. */
export interface CodeToCheckRow {
  id: string;
  code_hash: string;
  attempts: number;
  fresh: boolean;
}

/**
 * The target's live (unconsumed) code, locked until the transaction ends, and whether it was made less than
 * `resendSeconds` before `now`; undefined when there is none.
 */
export async function lockLiveCode(
  tx: Tx,
  target: CodeTarget,
  resendSeconds: number,
  now: Date,
): Promise<LiveCodeRow | undefined> {
  const live = await tx.query<LiveCodeRow>(
    `select id, created_at > $5::timestamptz - make_interval(secs => $4) as recent from one_time_codes
       where purpose = $1 and channel = $2 and destination = lower($3) and consumed_at is null for update`,
    [target.purpose, target.channel, target.destination, resendSeconds, now],
  );
  return live.rows[0];
}

/** Consumes one code at `now` (a fresh code replaces it). */
export async function consumeCode(tx: Tx, id: string, now: Date): Promise<void> {
  await tx.query('update one_time_codes set consumed_at = $2 where id = $1', [id, now]);
}

/** Consumes the target's live code at `now` if it is still the one of this hash (a code whose text was not sent). */
export async function withdrawLiveCode(
  db: Db,
  target: CodeTarget,
  codeHash: string,
  now: Date,
): Promise<void> {
  await db.query(
    `update one_time_codes set consumed_at = $5
      where purpose = $1 and channel = $2 and destination = lower($3) and code_hash = $4 and consumed_at is null`,
    [target.purpose, target.channel, target.destination, codeHash, now],
  );
}

/** Stores a new code of the target by its keyed hash, made at `now` and good for `ttlMinutes`. */
export async function insertCode(
  tx: Tx,
  target: CodeTarget & { userId: string | null },
  codeHash: string,
  ttlMinutes: number,
  now: Date,
): Promise<void> {
  await tx.query(
    `insert into one_time_codes (user_id, purpose, channel, destination, code_hash, created_at, expires_at)
       values ($1, $2, $3, lower($4), $5, $7, $7::timestamptz + make_interval(mins => $6))`,
    [target.userId, target.purpose, target.channel, target.destination, codeHash, ttlMinutes, now],
  );
}

/** The target's live code, locked until the transaction ends, and whether it is unexpired at `now`. */
export async function lockCodeToCheck(
  tx: Tx,
  target: CodeTarget,
  now: Date,
): Promise<CodeToCheckRow | undefined> {
  const row = await tx.query<CodeToCheckRow>(
    `select id, code_hash, attempts, expires_at > $4 as fresh from one_time_codes
           where purpose = $1 and channel = $2 and destination = lower($3) and consumed_at is null for update`,
    [target.purpose, target.channel, target.destination, now],
  );
  return row.rows[0];
}

/** Counts a wrong answer against a code; the `maxAttempts`-th consumes it at `now`. */
export async function countWrongAnswer(tx: Tx, id: string, maxAttempts: number, now: Date): Promise<void> {
  await tx.query(
    `update one_time_codes set attempts = attempts + 1,
             consumed_at = case when attempts + 1 >= $2 then $3::timestamptz else null end where id = $1`,
    [id, maxAttempts, now],
  );
}

/** Consumes the codes that all matched, at `now`. */
export async function consumeCodes(tx: Tx, ids: readonly string[], now: Date): Promise<void> {
  await tx.query('update one_time_codes set consumed_at = $2 where id = any($1::bigint[])', [ids, now]);
}

/** True when the user was ever sent a phone-change code for `number` (the change was started). */
export async function phoneChangeStarted(db: Db, number: string, userId: string): Promise<boolean> {
  const started = await db.query<SelectOne>(
    `select 1 from one_time_codes where purpose = 'phone_change' and destination = $1 and user_id = $2 limit 1`,
    [number, userId],
  );
  return Boolean(started.rowCount);
}

/** True while the user has an unconsumed phone-change code for `number`. */
export async function phoneChangePending(db: Db, number: string, userId: string): Promise<boolean> {
  const started = await db.query<SelectOne>(
    `select 1 from one_time_codes where purpose = 'phone_change' and destination = $1 and user_id = $2 and consumed_at is null`,
    [number, userId],
  );
  return Boolean(started.rowCount);
}
