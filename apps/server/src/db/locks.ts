import type pg from 'pg';
import type { Tx } from './pool.ts';

/**
 * Every PostgreSQL advisory lock the app takes, in one place, so that no two share a key. No other file names a
 * key or calls an advisory-lock function (apps/server/test/unit/locks.test.ts checks both).
 *
 * PostgreSQL keeps two key spaces apart: one 64-bit key, or two 32-bit keys. The fixed locks below use the first.
 * Families of locks (one per user, per address, per network) use the second, with the family's number first and
 * the member second, so a member's number or text hash can never land on another family's or a fixed lock's key
 * (a text hashed into the one-key space, as `hashtext()` alone, could land on a fixed lock: none is taken so).
 */
export const LOCKS = {
  /** Schema migrations and the embedded database's roles: one migrator at a time. */
  migration: 7_001_001,
  /** The card annual-fee run: one process at a time. */
  annualFee: 7_013_002,
  /** The scheduled backup: one process at a time. */
  backup: 7_020_001,
  /** The retention erasure of closed accounts (issue 31, part 4): one run at a time. */
  retentionErasure: 7_031_004,
  /** A sanctions-list import (issue 33): one at a time, a second replaces the first's list in turn. */
  sanctionsImport: 7_033_001,
  /** The active exchange core's lease. */
  core: 7_104_650_217,
  /** The first of the background jobs' locks in a split deployment (one per job: see {@link jobLock}). */
  jobs: 7_104_650_218,
} as const;

/** How many background jobs can have a lock: `LOCKS.jobs` up to this many keys further are theirs alone. */
export const JOB_LOCK_SLOTS = 64;

/** The lock of the background job at `index` (its position among the jobs) in a split deployment. */
export function jobLock(index: number): number {
  if (!Number.isInteger(index) || index < 0 || index >= JOB_LOCK_SLOTS)
    throw new Error(`advisory lock: job ${index} is past the ${JOB_LOCK_SLOTS} reserved job locks`);
  return LOCKS.jobs + index;
}

/** The families of locks (the first of two keys). */
export const LOCK_FAMILIES = {
  /** Per user: cards ordered, so the card limit cannot be raced. */
  cardSlot: 7_013_001,
  /** Per user: card top-ups, so the limits cannot be raced. */
  cardTopup: 7_013_003,
  /** Per user and network: a deposit address is made once. */
  depositAddress: 7_030_001,
  /** Per network: the signer's daily sum is decided one withdrawal at a time. */
  signerNetwork: 7_030_002,
  /** Per Bitcoin wallet address: its coins are spent by one transaction at a time. */
  bitcoinAddress: 7_030_003,
  /** Per user: a login's new-device check and its security-log entry, one login at a time (issue 31). */
  loginDevice: 7_031_001,
  /** Per user: the daily data export is decided one request at a time (issue 31, part 5). */
  dataExport: 7_031_002,
  /** Per user: account closure requests, cancels and completion, one at a time (issue 31, part 4). */
  accountClosure: 7_031_003,
} as const;

/**
 * Families taken by code outside the product, kept here so that no family above reuses them: the chain
 * simulators' per-chain locks (`SIM_LOCK_FAMILIES` in packages/chain-sim/src/locks.ts, checked equal by the test).
 */
export const RESERVED_FAMILIES = {
  chainSimBitcoin: 7_040_001,
  chainSimTron: 7_040_002,
} as const;

/**
 * An advisory lock's key: a fixed lock (one key), or a family's member (two keys). A member given as text is
 * hashed by PostgreSQL (`hashtext`); a number is taken modulo 2^31 - 1 (ids are bigints, the key is 32 bits).
 */
export type LockKey = number | readonly [family: number, member: number | string];

/** `fn(key)` in SQL with its parameters, for any advisory-lock function. */
function lockCall(fn: string, key: LockKey): { text: string; values: unknown[] } {
  if (typeof key === 'number') return { text: `select ${fn}($1) as ok`, values: [key] };
  const [family, member] = key;
  return typeof member === 'string'
    ? { text: `select ${fn}($1, hashtext($2)) as ok`, values: [family, member] }
    : { text: `select ${fn}($1, ($2::bigint % 2147483647)::int) as ok`, values: [family, member] };
}

/** Takes a transaction-scoped advisory lock, held until `tx` commits or rolls back. */
export async function lockForTransaction(tx: Tx, key: LockKey): Promise<void> {
  const call = lockCall('pg_advisory_xact_lock', key);
  await tx.query(call.text, call.values);
}

/** Takes a session advisory lock on a connection the caller owns (not a pooled one: see {@link withLock}). */
export async function lockSession(client: pg.ClientBase, key: LockKey, wait = true): Promise<boolean> {
  const call = lockCall(wait ? 'pg_advisory_lock' : 'pg_try_advisory_lock', key);
  // pg_try_advisory_lock answers a boolean; pg_advisory_lock returns void, which arrives as ''.
  return (await client.query<{ ok: boolean | '' }>(call.text, call.values)).rows[0]?.ok !== false;
}

/**
 * Runs `work` on a pooled connection that holds the session advisory lock `key` (waiting for it), and unlocks before
 * the connection goes back to the pool. If the unlock fails (the work left the connection in a failed transaction,
 * or the connection broke), the connection is closed instead of pooled: PostgreSQL drops the lock with it, and no
 * later borrower of the connection holds it unknowingly.
 */
export async function withLock<T>(
  pool: pg.Pool,
  key: LockKey,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const outcome = await runLocked(pool, key, true, work);
  if (!outcome.locked) throw new Error('advisory lock: a waiting lock came back untaken');
  return outcome.value;
}

/** {@link withLock} that only tries the lock: `{ locked: false }` when another session holds it. */
export function withTryLock<T>(
  pool: pg.Pool,
  key: LockKey,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<{ locked: true; value: T } | { locked: false }> {
  return runLocked(pool, key, false, work);
}

async function runLocked<T>(
  pool: pg.Pool,
  key: LockKey,
  wait: boolean,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<{ locked: true; value: T } | { locked: false }> {
  const client = await pool.connect();
  // Set when the connection may still hold the lock: it must not go back to the pool.
  let broken: Error | undefined;
  try {
    let locked: boolean;
    try {
      locked = await lockSession(client, key, wait);
    } catch (err) {
      broken = err as Error;
      throw err;
    }
    if (!locked) return { locked: false };
    try {
      return { locked: true, value: await work(client) };
    } finally {
      const call = lockCall('pg_advisory_unlock', key);
      try {
        if ((await client.query<{ ok: boolean }>(call.text, call.values)).rows[0]?.ok !== true)
          broken = new Error('advisory lock was not held at unlock');
      } catch (err) {
        broken = err as Error;
      }
    }
  } finally {
    client.release(broken);
  }
}
