import fastifyRateLimit from '@fastify/rate-limit';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  ['in memory (one process)', () => memoryRateLimitStore()],
  ['in PostgreSQL (several api processes)', () => sharedRateLimitStore(db.pool)],
])('the rate-limit store %s', (_name, store) => {
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
});
