import fastifyRateLimit from '@fastify/rate-limit';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Clock, TestClock } from '../../src/clock.ts';
import { memoryRateLimitStore, sharedRateLimitStore } from '../../src/http/shared-limits.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

// Both stores behind @fastify/rate-limit as the app uses them: per route, per key, and exact under a burst.
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.drop();
});

async function limitedApp(store: ReturnType<typeof memoryRateLimitStore>) {
  const app = Fastify();
  await app.register(fastifyRateLimit, { global: false, store });
  const limit = { config: { rateLimit: { max: 5, timeWindow: '1 minute' } } };
  app.get('/a', limit, async () => ({ route: 'a' }));
  app.get('/b', limit, async () => ({ route: 'b' }));
  await app.ready();
  return app;
}

describe.each([
  ['in memory (one process)', (clock: Clock) => memoryRateLimitStore(clock)],
  ['in PostgreSQL (several api processes)', (clock: Clock) => sharedRateLimitStore(db.pool, clock)],
])('the rate-limit store %s', (_name, storeOn) => {
  const store = () => storeOn(new TestClock());

  it('lets exactly the limit through a burst that arrives at once', async () => {
    const app = await limitedApp(store());
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => app.inject({ method: 'GET', url: '/a', remoteAddress: '10.9.0.1' })),
    );
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(5);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(15);
    await app.close();
  });

  it('counts each limited route on its own, and each address on its own', async () => {
    const app = await limitedApp(store());
    const hit = (url: string, ip: string) => app.inject({ method: 'GET', url, remoteAddress: ip });
    for (let i = 0; i < 5; i++) expect((await hit('/a', '10.9.0.2')).statusCode).toBe(200);
    expect((await hit('/a', '10.9.0.2')).statusCode).toBe(429);
    expect((await hit('/b', '10.9.0.2')).statusCode).toBe(200);
    expect((await hit('/a', '10.9.0.3')).statusCode).toBe(200);
    await app.close();
  });

  it("opens the window again when the app's clock passes its end, not a moment before", async () => {
    const clock = new TestClock();
    const app = await limitedApp(storeOn(clock));
    const hit = () => app.inject({ method: 'GET', url: '/a', remoteAddress: '10.9.0.4' });
    for (let i = 0; i < 5; i++) expect((await hit()).statusCode).toBe(200);
    const refused = await hit();
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(55);
    expect(retryAfter).toBeLessThanOrEqual(60);
    clock.advance((retryAfter - 2) * 1000);
    expect((await hit()).statusCode).toBe(429);
    clock.advance(2_000);
    expect((await hit()).statusCode).toBe(200);
    await app.close();
  });
});
