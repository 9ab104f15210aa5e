import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock, TestClock } from '../../src/clock.ts';
import { clockFor } from '../../src/compose.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

// The test-only clock control (modules/dev/clock-routes.ts): an end-to-end test moves the server's time with it
// instead of waiting. It must not exist outside NODE_ENV=test, whatever else is on.
const CLOCK = '/api/v2/dev/clock';
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.drop();
});

/**
 * An app over the shared database, closed (not dropped) after `use`; with NODE_ENV=production over a database of
 * its own, whose keys its SECRET_KEY seals.
 */
async function withApp(env: Record<string, string>, use: (t: TestApp) => Promise<void>, clock?: TestClock) {
  const own = env.NODE_ENV === 'production';
  const t = await createTestApp(clock ? { clock } : {}, env, own ? undefined : db);
  try {
    await use(t);
  } finally {
    if (own) await t.close();
    else {
      await t.app.close();
      await t.signer?.close();
    }
  }
}

describe('the clock control', () => {
  it('moves the server clock ahead with NODE_ENV=test, from this machine only', async () => {
    await withApp({}, async (t) => {
      const before = await t.app.inject({ method: 'GET', url: CLOCK });
      expect(before.statusCode).toBe(200);
      expect(before.json().offset_ms).toBe(0);
      const moved = await t.app.inject({ method: 'POST', url: CLOCK, payload: { advance_ms: 61_000 } });
      expect(moved.statusCode).toBe(200);
      expect(moved.json().offset_ms).toBe(61_000);
      expect(t.deps.clock.now() - Date.now()).toBeGreaterThanOrEqual(60_900);
      expect(Date.parse(moved.json().now)).toBeGreaterThan(Date.now() + 60_000);
      // Never back, never by something that is not a number of ms.
      for (const advance_ms of [-1, 1.5, '1000', null]) {
        const res = await t.app.inject({ method: 'POST', url: CLOCK, payload: { advance_ms } });
        expect(res.statusCode, String(advance_ms)).toBe(422);
      }
      // Another machine, or a request forwarded by a proxy, moves nothing.
      const remote = await t.app.inject({
        method: 'POST',
        url: CLOCK,
        payload: { advance_ms: 1_000 },
        remoteAddress: '10.1.2.3',
      });
      expect(remote.statusCode).toBe(403);
      const forwarded = await t.app.inject({
        method: 'POST',
        url: CLOCK,
        payload: { advance_ms: 1_000 },
        headers: { 'x-forwarded-for': '203.0.113.9' },
      });
      expect(forwarded.statusCode).toBe(403);
      expect((await t.app.inject({ method: 'GET', url: CLOCK })).json().offset_ms).toBe(61_000);
    });
  });

  it('is absent in development and in production, even on a movable clock', async () => {
    const production = { NODE_ENV: 'production', SECRET_KEY: 'k'.repeat(32), DEMO_BOT: 'false' };
    for (const env of [{ NODE_ENV: 'development' }, production]) {
      const clock = new TestClock();
      await withApp(
        env,
        async (t) => {
          expect(t.app.hasRoute({ method: 'POST', url: CLOCK }), env.NODE_ENV).toBe(false);
          expect(t.app.hasRoute({ method: 'GET', url: CLOCK }), env.NODE_ENV).toBe(false);
          const res = await t.app.inject({ method: 'POST', url: CLOCK, payload: { advance_ms: 61_000 } });
          expect(res.statusCode, env.NODE_ENV).toBe(404);
          expect(clock.offset).toBe(0);
        },
        clock,
      );
    }
  });

  it('is a movable clock only with NODE_ENV=test: the composition gives any other server the machine clock', () => {
    expect(clockFor({ env: 'test' })).toBeInstanceOf(TestClock);
    for (const env of ['development', 'production'] as const) expect(clockFor({ env })).toBe(systemClock);
  });
});
