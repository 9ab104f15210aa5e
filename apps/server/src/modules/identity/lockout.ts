import { ERRORS, LIMITS } from '@exchange/shared';
import type pg from 'pg';
import { type Clock, dateOf } from '../../clock.ts';
import { AppError } from '../../http/errors.ts';
import {
  countAttempt,
  countShownFailure,
  deleteFailures,
  lockedAt,
  lockKeys,
  uncountAttempt,
} from './lockout-repository.ts';

/**
 * Failed password or second-factor checks allowed per account before it is blocked, and for how long; and how
 * many login attempts of any outcome one account may make per 10 minutes from all addresses together.
 */
export const LOGIN_POLICY = {
  maxFailures: 5,
  lockMinutes: LIMITS.loginLockMinutes,
  attemptsPerWindow: 20,
  windowMinutes: 10,
} as const;

/**
 * The key failures are counted and locked under: the account itself when it exists, whichever identifier (email
 * or phone, any spelling) named it, so a block by email also blocks the phone login and the password change;
 * the normalised identifier when no account has it, so unknown identifiers are counted and blocked alike and
 * tell nobody which accounts exist.
 */
export function lockoutKey(userId: string | undefined, identifier: string): string {
  return userId === undefined ? identifier : `user:${userId}`;
}

/** What the lockout needs: the database and the app's clock, on which failures, locks and their end are timed. */
export interface LockoutDeps {
  db: pg.Pool;
  clock: Clock;
}

const blocked = () => new AppError(401, [ERRORS.accountBlocked, ERRORS.tooManyAttempts]);

/** Throws the block (401 account_blocked, too_many_attempts) while the key is locked. */
export async function assertNotBlocked({ db, clock }: LockoutDeps, key: string): Promise<void> {
  if (await lockedAt(db, key, dateOf(clock))) throw blocked();
}

/**
 * Counts an attempt under the key before its password is checked, in one statement, so that concurrent attempts
 * each get their own number: the count is the failures so far plus the attempts still being checked, and no
 * attempt is checked past {@link LOGIN_POLICY}.maxFailures, so a burst of guesses gets no more checks than the
 * same guesses one after the other. Returns the attempt's number. Throws the block while the key is locked; an
 * attempt past the limit while earlier ones are still being checked is taken back and refused with 429
 * `server.rate_limited` (unchecked: neither a failure nor a success). A lock that has run out starts afresh.
 *
 * The attempt stays counted as a failure unless the password turns out right: then {@link releaseAttempt}.
 */
export async function beginAttempt(deps: LockoutDeps, key: string): Promise<number> {
  const row = await countAttempt(
    deps.db,
    key,
    LOGIN_POLICY.maxFailures,
    LOGIN_POLICY.lockMinutes,
    dateOf(deps.clock),
  );
  if (row.locked) throw blocked();
  if (row.failures > LOGIN_POLICY.maxFailures) {
    await releaseAttempt(deps, key);
    throw new AppError(429, [ERRORS.rateLimited]);
  }
  return row.failures;
}

/**
 * Takes back an attempt whose password was right (a login that stops at its second step, a code resend, the
 * identity step): a correct password is no failure. In the same statement it checks the lock, which attempts
 * that arrived while this one was being checked may have set: then even the right password is refused with the
 * block. The counter itself is reset only by a completed login.
 */
export async function releaseAttempt({ db, clock }: LockoutDeps, key: string): Promise<void> {
  if (await uncountAttempt(db, key, dateOf(clock))) throw blocked();
}

/**
 * Settles a failed attempt counted by {@link beginAttempt}: the last one allowed locks the key and throws the
 * block; otherwise returns the attempts left as shown to the client.
 *
 * What is shown is counted per identifier (`shownKey`: the email or phone as typed, normalised), not per
 * account: a count shared by an email and a phone would tell anyone who tries both that they are one account.
 * The lock still counts the account's failures from every identifier together. The shown count follows the
 * rules of an unknown identifier's own count (it restarts when the lock runs out), so it tells no more about
 * whether an account exists than the lockout of unknown identifiers does.
 */
export async function failAttempt(
  { db, clock }: LockoutDeps,
  key: string,
  attempt: number,
  shownKey: string = key,
): Promise<number> {
  const now = dateOf(clock);
  if (attempt >= LOGIN_POLICY.maxFailures) {
    await lockKeys(
      db,
      [...new Set([key, shownKey])],
      LOGIN_POLICY.maxFailures,
      LOGIN_POLICY.lockMinutes,
      now,
    );
    throw blocked();
  }
  if (shownKey === key) return LOGIN_POLICY.maxFailures - attempt;
  const shown = await countShownFailure(db, shownKey, now);
  // Never "none left" while the account is not blocked; nothing of the account's own count shows.
  return Math.max(1, LOGIN_POLICY.maxFailures - shown);
}

/**
 * Forgets the failures of an account (after a completed login or a new password), and those shown for the
 * identifier it was reached with.
 */
export async function clearFailures(
  db: pg.Pool | pg.PoolClient,
  userId: string,
  shownKey?: string,
): Promise<void> {
  await deleteFailures(db, lockoutKey(userId, ''), shownKey ?? null);
}
