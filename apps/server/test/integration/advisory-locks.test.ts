import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_FAMILIES, LOCKS, withLock, withTryLock } from '../../src/db/locks.ts';
import { createPool } from '../../src/db/pool.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.drop();
});

/** Whether a session of its own could take `key` now (and gives it back at once). */
async function freeElsewhere(family: number, member: string): Promise<boolean> {
  const other = createPool(db.url, 1);
  try {
    const ok = (await other.query('select pg_try_advisory_lock($1, hashtext($2)) as ok', [family, member]))
      .rows[0].ok as boolean;
    if (ok) await other.query('select pg_advisory_unlock($1, hashtext($2))', [family, member]);
    return ok;
  } finally {
    await other.end();
  }
}

describe('advisory locks on pooled connections', () => {
  it('no two locks of the registry share a key', () => {
    const fixed = Object.values(LOCKS);
    expect(new Set(fixed).size).toBe(fixed.length);
    const families = Object.values(LOCK_FAMILIES);
    expect(new Set(families).size).toBe(families.length);
    // Families are the first of two 32-bit keys.
    for (const family of families) expect(family).toBeLessThan(2 ** 31);
  });

  it('holds the lock during the work and gives it back after', async () => {
    const key = [LOCK_FAMILIES.depositAddress, 'test:held'] as const;
    const during = await withLock(db.pool, key, () => freeElsewhere(key[0], key[1]));
    expect(during).toBe(false);
    expect(await freeElsewhere(key[0], key[1])).toBe(true);
  });

  it('closes, rather than pools, a connection whose unlock failed, so the lock cannot leak to its next user', async () => {
    const pool = createPool(db.url, 1);
    const key = [LOCK_FAMILIES.depositAddress, 'test:aborted'] as const;
    const pids: number[] = [];
    try {
      // The work leaves its connection in a failed transaction: the unlock after it cannot run.
      await expect(
        withLock(pool, key, async (client) => {
          pids.push((await client.query('select pg_backend_pid() as pid')).rows[0].pid);
          await client.query('begin');
          await client.query('select 1/0').catch(() => {});
          return 'done';
        }),
      ).resolves.toBe('done');
      expect(await freeElsewhere(key[0], key[1])).toBe(true);
      // The pool's one connection is a new one, holding nothing.
      const next = await pool.connect();
      pids.push((await next.query('select pg_backend_pid() as pid')).rows[0].pid);
      const held = await next.query(
        "select count(*)::int as n from pg_locks where locktype = 'advisory' and pid = pg_backend_pid()",
      );
      next.release();
      expect(held.rows[0].n).toBe(0);
      expect(pids[1]).not.toBe(pids[0]);
    } finally {
      await pool.end();
    }
  });

  it('only tries a lock another session holds, and runs nothing', async () => {
    const holder = createPool(db.url, 1);
    try {
      await holder.query('select pg_advisory_lock($1)', [LOCKS.annualFee]);
      let ran = false;
      const outcome = await withTryLock(db.pool, LOCKS.annualFee, async () => {
        ran = true;
      });
      expect(outcome.locked).toBe(false);
      expect(ran).toBe(false);
      // Given back before the session ends: a backend lets its locks go only once its process has exited, which
      // a busy machine may do after the next statement here has tried.
      await holder.query('select pg_advisory_unlock($1)', [LOCKS.annualFee]);
    } finally {
      await holder.end();
    }
    const outcome = await withTryLock(db.pool, LOCKS.annualFee, async () => 7);
    expect(outcome).toEqual({ locked: true, value: 7 });
  });
});
