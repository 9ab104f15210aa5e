import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLedger } from '../../src/core/audit.ts';
import { type Core, startCore } from '../../src/core/index.ts';
import { CoreLease } from '../../src/core/lease.ts';
import { plainUser } from '../support/core.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

let db: TestDatabase;
const quiet = { info: () => {}, warn: () => {} };

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

const credit = (core: Core, user: number, ref?: string) =>
  core.sequencer.submit(
    { type: 'Credit', user, currency: 'usdt', amount: 1_000_000n, kind: 'adjustment' },
    ref,
  );
const balance = async (user: number) =>
  (
    await db.pool.query(
      `select trim_scale(coalesce(sum(balance), 0))::text as b from balances where user_id = $1`,
      [user],
    )
  ).rows[0].b;

describe('the core lease', () => {
  it('keeps a second core waiting as a standby until the first gives the lease up, and raises the term', async () => {
    const { lease: first } = await CoreLease.acquire(db.url, quiet);
    const said: string[] = [];
    let second: CoreLease | undefined;
    const waiting = CoreLease.acquire(db.url, { info: (m) => said.push(m), warn: () => {} }).then((r) => {
      second = r.lease;
      return r;
    });
    // It found the lease held and waits: it says so, and has no lease.
    await vi.waitFor(() => expect(said.join()).toContain('standby'));
    expect(second).toBeUndefined();
    const released = performance.now();
    await first.release();
    const taken = await waiting;
    // A figure, not a check: timings belong to the bench.
    console.log(
      `standby took the lease ${Math.round(performance.now() - released)} ms after it was released`,
    );
    expect(taken.lease.term).toBe(first.term + 1);
    await taken.lease.release();
  });

  it('fences a deposed core: once a successor holds the lease, the old core cannot commit a thing', async () => {
    const user = await plainUser(db.pool, 'fenced@example.com');
    const { lease: old } = await CoreLease.acquire(db.url, quiet);
    const fatal: Error[] = [];
    const oldCore = await startCore(db.pool, {}, (err) => fatal.push(err), old);
    expect((await credit(oldCore, user)).ok).toBe(true);
    expect(await balance(user)).toBe('1');

    // The old core's lease connection dies (a network cut); it still runs and still believes it is active.
    await db.pool.query(
      `select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'exchange-core-lease'`,
    );
    const { lease: successor } = await CoreLease.acquire(db.url, quiet);
    expect(successor.term).toBe(old.term + 1);
    const newCore = await startCore(db.pool, {}, () => {}, successor);

    await expect(credit(oldCore, user)).rejects.toThrow(/fenced/);
    expect(fatal[0]?.message).toMatch(/exchange core stopped: .*fenced: its term \d+ was superseded/);
    expect(await balance(user)).toBe('1');

    // The successor goes on from what was committed, and the books balance.
    expect((await credit(newCore, user)).ok).toBe(true);
    expect(await balance(user)).toBe('2');
    expect(await auditLedger(db.pool)).toEqual([]);
    await newCore.sequencer.drain();
    await successor.release();
    await old.release();
  });

  it('takes its own lease back after a lost lease connection when nobody else took it', async () => {
    const user = await plainUser(db.pool, 'back@example.com');
    const { lease } = await CoreLease.acquire(db.url, quiet);
    const core = await startCore(db.pool, {}, () => {}, lease);
    await db.pool.query(
      `select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'exchange-core-lease'`,
    );
    // Gone once its backend is: the advisory lock goes with it.
    await vi.waitFor(async () => {
      const left = await db.pool.query(
        `select count(*)::int as n from pg_stat_activity where application_name = 'exchange-core-lease'`,
      );
      expect(left.rows[0].n).toBe(0);
    });
    // The reload after a lost database confirms the lease first: the lock is free and the term unchanged. The
    // lease hears its connection's end a moment after the backend is gone; until then a confirm fails on the dead
    // connection and the reload tries again, as here.
    expect(await vi.waitFor(() => lease.confirm())).toBe(lease.term);
    expect((await credit(core, user)).ok).toBe(true);
    // ...and now a would-be successor waits (it says so), until it is stopped.
    const abort = new AbortController();
    const said: string[] = [];
    const standby = CoreLease.acquire(db.url, { info: (m) => said.push(m), warn: () => {} }, abort.signal);
    await vi.waitFor(() => expect(said.join()).toContain('standby'));
    abort.abort();
    await expect(standby).rejects.toThrow(/stopped while waiting/);
    await core.sequencer.drain();
    await lease.release();
  });
});
