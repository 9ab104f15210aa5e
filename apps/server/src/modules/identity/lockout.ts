import { ERRORS } from '@exchange/shared';
import type pg from 'pg';
import { AppError } from '../../http/errors.ts';

/**
 * Failed password or second-factor checks allowed per account before it is blocked, and for how long; and how
 * many login attempts of any outcome one account may make per 10 minutes from all addresses together.
 */
export const LOGIN_POLICY = {
  maxFailures: 5,
  lockMinutes: 15,
  attemptsPerWindow: 20,
  windowMinutes: 10,
} as const;

/**
 * The key failures are counted under: the account itself when it exists, whichever identifier (email or
 * phone, any spelling) named it, so a block by email also blocks the phone login and the password change;
 * the normalised identifier when no account has it, so unknown identifiers are counted and blocked alike and
 * tell nobody which accounts exist.
 */
export function lockoutKey(userId: string | undefined, identifier: string): string {
  return userId === undefined ? identifier : `user:${userId}`;
}

/** Throws the block (401 account_blocked, too_many_attempts) while the key is locked. */
export async function assertNotBlocked(db: pg.Pool, key: string): Promise<void> {
  const row = (
    await db.query('select locked_until > now() as locked from login_failures where identifier = $1', [key])
  ).rows[0];
  if (row?.locked) throw new AppError(401, [ERRORS.accountBlocked, ERRORS.tooManyAttempts]);
}

/**
 * Counts a failure under the key; returns the attempts left, or locks the key and throws the block when the
 * limit is reached. A lock that has run out starts a fresh count.
 */
export async function countFailure(db: pg.Pool, key: string): Promise<number> {
  const row = (
    await db.query(
      `insert into login_failures (identifier, failures, updated_at) values ($1, 1, now())
       on conflict (identifier) do update set
         failures = case when login_failures.locked_until is not null and login_failures.locked_until <= now()
                         then 1 else login_failures.failures + 1 end,
         locked_until = case when login_failures.locked_until is not null and login_failures.locked_until <= now()
                             then null else login_failures.locked_until end,
         updated_at = now()
       returning failures`,
      [key],
    )
  ).rows[0];
  const left = LOGIN_POLICY.maxFailures - row.failures;
  if (left <= 0) {
    await db.query(
      `update login_failures set locked_until = now() + make_interval(mins => $2) where identifier = $1`,
      [key, LOGIN_POLICY.lockMinutes],
    );
    throw new AppError(401, [ERRORS.accountBlocked, ERRORS.tooManyAttempts]);
  }
  return left;
}

/** Forgets the failures of an account (after a successful login or a new password). */
export async function clearFailures(db: pg.Pool | pg.PoolClient, userId: string): Promise<void> {
  await db.query('delete from login_failures where identifier = $1', [lockoutKey(userId, '')]);
}
