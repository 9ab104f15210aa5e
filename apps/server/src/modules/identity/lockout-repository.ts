import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';

type Db = pg.Pool | Tx;

/** An attempt as counted under a key: its number, and whether the key is locked. */
export interface CountedAttemptRow {
  failures: number;
  locked: boolean;
}

/** True when the key is locked at `now` (false when it has no row). */
export async function lockedAt(db: Db, key: string, now: Date): Promise<boolean> {
  const row = (
    await db.query<{ locked: boolean | null }>(
      'select locked_until > $2 as locked from login_failures where identifier = $1',
      [key, now],
    )
  ).rows[0];
  return Boolean(row?.locked);
}

/**
 * Counts an attempt under the key in one statement (see lockout.ts, beginAttempt): a lock run out by `now` starts
 * afresh, and so does a full count with no lock untouched for `lockMinutes` (attempts that never settled).
 */
export async function countAttempt(
  db: Db,
  key: string,
  maxFailures: number,
  lockMinutes: number,
  now: Date,
): Promise<CountedAttemptRow> {
  return (
    await db.query<CountedAttemptRow>(
      `insert into login_failures (identifier, failures, updated_at) values ($1, 1, $4)
       on conflict (identifier) do update set
         failures = case
           when login_failures.locked_until <= $4 then 1
           -- A full count with no lock, untouched for a lock period: attempts that never settled (a process
           -- that died while checking), not failures; start afresh rather than refuse forever.
           when login_failures.locked_until is null and login_failures.failures >= $2
             and login_failures.updated_at < $4::timestamptz - make_interval(mins => $3) then 1
           else login_failures.failures + 1 end,
         locked_until = case when login_failures.locked_until <= $4 then null else login_failures.locked_until end,
         updated_at = $4
       returning failures, coalesce(locked_until > $4, false) as locked`,
      [key, maxFailures, lockMinutes, now],
    )
  ).rows[0]!;
}

/** Takes one counted attempt back; true when the key is locked at `now` (false when it has no row). */
export async function uncountAttempt(db: Db, key: string, now: Date): Promise<boolean> {
  const row = (
    await db.query<{ locked: boolean }>(
      `update login_failures set failures = greatest(failures - 1, 0) where identifier = $1
       returning coalesce(locked_until > $2, false) as locked`,
      [key, now],
    )
  ).rows[0];
  return Boolean(row?.locked);
}

/**
 * Locks each key for `lockMinutes` from `now` with `failures` as its count, unless it is locked already (a lock
 * still running keeps its end).
 */
export async function lockKeys(
  db: Db,
  keys: readonly string[],
  failures: number,
  lockMinutes: number,
  now: Date,
): Promise<void> {
  await db.query(
    `insert into login_failures (identifier, failures, locked_until, updated_at)
       select k, $2, $4::timestamptz + make_interval(mins => $3), $4 from unnest($1::text[]) as k
       on conflict (identifier) do update set locked_until = excluded.locked_until, updated_at = $4
       where login_failures.locked_until is null or login_failures.locked_until <= $4`,
    [keys, failures, lockMinutes, now],
  );
}

/** Counts a failure under a shown key (restarting when its lock has run out by `now`); the count. */
export async function countShownFailure(db: Db, shownKey: string, now: Date): Promise<number> {
  return (
    await db.query<{ failures: number }>(
      `insert into login_failures (identifier, failures, updated_at) values ($1, 1, $2)
       on conflict (identifier) do update set
         failures = case when login_failures.locked_until <= $2 then 1 else login_failures.failures + 1 end,
         locked_until = case when login_failures.locked_until <= $2 then null else login_failures.locked_until end,
         updated_at = $2
       returning failures`,
      [shownKey, now],
    )
  ).rows[0]!.failures;
}

/** Deletes the counts under an account's key and (when given) a shown key. */
export async function deleteFailures(db: Db, accountKey: string, shownKey: string | null): Promise<void> {
  await db.query('delete from login_failures where identifier = $1 or identifier = $2', [
    accountKey,
    shownKey,
  ]);
}
