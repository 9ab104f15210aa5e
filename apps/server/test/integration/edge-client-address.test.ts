import { randomBytes } from 'node:crypto';
import { type Challenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TestClock } from '../../src/clock.ts';
import * as crypto from '../../src/modules/identity/crypto.ts';
import { DEFAULT_SESSION_POLICY, SessionStore } from '../../src/modules/identity/sessions.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { plainUser, sessionFor } from '../support/core.ts';
import { createTestDatabase } from '../support/db.ts';
import { activeUser, nextIp } from '../support/identity.ts';

// The CSRF check must go through the constant-time comparison; a pass-through spy shows that it does.
vi.mock('../../src/modules/identity/crypto.ts', async (original) => {
  const actual = await original<typeof import('../../src/modules/identity/crypto.ts')>();
  return { ...actual, safeEqual: vi.fn(actual.safeEqual) };
});

/** Issue 25, item 9: client addresses and caches that a client could steer. */

describe('client addresses behind a proxy (TRUST_PROXY)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { TRUST_PROXY: '1' });
  });
  afterAll(() => t.close());

  /** A request that came through our one proxy (10.9.9.9), which appended the address it saw. */
  const viaProxy = (app: TestApp, forwardedFor: string, url: string, payload: object) =>
    app.app.inject({
      method: 'POST',
      url,
      payload,
      remoteAddress: '10.9.9.9',
      headers: { 'x-forwarded-for': forwardedFor },
    });

  it('takes the address the proxy saw, not the one the client wrote, for the security log', async () => {
    const { email } = await activeUser(t, 'proxied@example.com');
    const res = await viaProxy(t, '6.6.6.6, 1.2.3.4', '/api/v2/barong/identity/sessions', {
      email,
      password: 'Wrong-password#1',
    });
    expect(res.statusCode).toBe(401);
    const logged = await t.db.pool.query(
      `select a.ip from activities a join users u on u.id = a.user_id
        where u.email = $1 and a.action = 'login' and a.result = 'failed'`,
      [email],
    );
    expect(logged.rows).toEqual([{ ip: '1.2.3.4' }]);
  });

  it('counts per-IP rate limits by that address, whatever the client puts in front of it', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await viaProxy(t, `6.6.${i}.${i}, 1.2.3.5`, '/api/v2/barong/identity/users', {});
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 10).every((s) => s === 422)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('with the proxies named by address, trusts the header only from them', async () => {
    const byAddress = await createTestApp({}, { TRUST_PROXY: '10.9.9.9' });
    const seen = async (remoteAddress: string, forwardedFor: string) => {
      const { email } = await activeUser(byAddress, `seen-${randomBytes(4).toString('hex')}@example.com`);
      await byAddress.app.inject({
        method: 'POST',
        url: '/api/v2/barong/identity/sessions',
        payload: { email, password: 'Wrong-password#1' },
        remoteAddress,
        headers: { 'x-forwarded-for': forwardedFor },
      });
      const row = await byAddress.db.pool.query(
        `select a.ip from activities a join users u on u.id = a.user_id where u.email = $1 and a.result = 'failed'`,
        [email],
      );
      return row.rows[0]?.ip;
    };
    try {
      expect(await seen('10.9.9.9', '6.6.6.6, 1.2.3.4')).toBe('1.2.3.4');
      // Not our proxy: its header is the client's own words.
      expect(await seen('5.5.5.5', '6.6.6.6')).toBe('5.5.5.5');
    } finally {
      await byAddress.close();
    }
  });
});

describe('the session cache', () => {
  it('keeps a live session cached through six times its cache of random cookies, and a miss writes nothing', async () => {
    const db = await createTestDatabase();
    const statements: string[] = [];
    // The store's own statements, whitespace normalised.
    const spied = new Proxy(db.pool, {
      get(target, property) {
        if (property !== 'query') return Reflect.get(target, property);
        return (text: string, values?: unknown[]) => {
          statements.push(text.trim().replace(/\s+/g, ' '));
          return target.query(text, values);
        };
      },
    }) as pg.Pool;
    // A long cache lifetime, so only eviction (not age) could take the live entry out; a cache of unknown cookies a
    // tenth of the default's, so that six times its size is a flood of 6,000 (the same eviction, a tenth of the time).
    const clock = new TestClock();
    const policy = { ...DEFAULT_SESSION_POLICY, cacheMs: 10 * 60_000, unknownCacheSize: 1_000 };
    const sessions = new SessionStore(spied, policy, undefined, clock);
    const t = await createTestApp({ sessions }, {}, db);
    try {
      const id = await plainUser(db.pool, 'cached@edge.test');
      const live = await sessionFor(sessions, id);
      const me = (cookie: string) =>
        t.app.inject({ method: 'GET', url: '/api/v2/barong/resource/users/me', headers: { cookie } });
      expect((await me(live.cookie)).statusCode).toBe(200);
      const before = await db.pool.query('select last_seen_at, revoked_at from sessions');

      statements.length = 0;
      const random = () => `session=${randomBytes(32).toString('base64url')}`;
      for (let sent = 0; sent < 6 * policy.unknownCacheSize; sent += 100) {
        const answers = await Promise.all(Array.from({ length: 100 }, () => me(random())));
        expect(answers.every((a) => a.statusCode === 401)).toBe(true);
      }
      const flood = [...statements];
      const after = await db.pool.query('select last_seen_at, revoked_at from sessions');

      // Still cached: the live session is answered without a lookup. A minute on, its idle expiry is written once,
      // by this exact statement, and that is all.
      statements.length = 0;
      clock.advance(61_000);
      expect((await me(live.cookie)).statusCode).toBe(200);
      const touch = 'update sessions set last_seen_at = $2 where id = $1 and revoked_at is null';
      expect(statements).toEqual([touch]);
      // A miss only reads: no statement of the flood wrote, and no row changed.
      expect(flood.filter((s) => !s.startsWith('select ')).slice(0, 3)).toEqual([]);
      expect(after.rows).toEqual(before.rows);
      expect(sessions.stats().unknown).toBeLessThanOrEqual(policy.unknownCacheSize);
      expect(sessions.stats().live).toBe(1);
    } finally {
      await t.close();
    }
  }, 180_000);
});

describe('the idle timeout', () => {
  it('slides on use (written at most once a minute) and ends an idle session', async () => {
    const db = await createTestDatabase();
    try {
      const sessions = new SessionStore(db.pool, { ...DEFAULT_SESSION_POLICY, cacheMs: 0 });
      const id = await plainUser(db.pool, 'idle@edge.test');
      const { token } = await sessions.create(String(id), '127.0.0.1', 'test');
      const age = async () =>
        Number(
          (await db.pool.query('select extract(epoch from now() - last_seen_at)::int as s from sessions'))
            .rows[0].s,
        );
      await db.pool.query(`update sessions set last_seen_at = now() - interval '20 seconds'`);
      expect(await sessions.resolve(token)).not.toBeNull();
      expect(await age()).toBeGreaterThanOrEqual(20);
      await db.pool.query(`update sessions set last_seen_at = now() - interval '59 minutes'`);
      expect(await sessions.resolve(token)).not.toBeNull();
      expect(await age()).toBeLessThan(5);
      await db.pool.query(`update sessions set last_seen_at = now() - interval '61 minutes'`);
      expect(await sessions.resolve(token)).toBeNull();
    } finally {
      await db.drop();
    }
  });
});

describe('the CSRF token', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is compared in constant time, and a wrong one is refused', async () => {
    const id = await plainUser(t.db.pool, 'csrf@edge.test');
    const session = await sessionFor(t.deps.sessions, id);
    const compare = vi.mocked(crypto.safeEqual);
    compare.mockClear();
    const wrong = 'x'.repeat(session['x-csrf-token'].length);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v2/peatio/market/orders',
      headers: { cookie: session.cookie, 'x-csrf-token': wrong },
      payload: { market: 'ethbtc', side: 'sell', volume: '1', price: '9', ord_type: 'limit' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ errors: ['authz.csrf_token_mismatch'] });
    expect(compare).toHaveBeenCalledWith(wrong, session['x-csrf-token']);
  });
});

describe('a solved ALTCHA challenge', () => {
  it('is accepted once by all api processes together', async () => {
    const first = await createTestApp({}, { CAPTCHA_TYPE: 'altcha' });
    // A second api process on the same database (sharing the core, as a split deployment does over NATS).
    const second = await createTestApp({ core: first.deps.core }, { CAPTCHA_TYPE: 'altcha' }, first.db);
    try {
      const challenge = (
        await first.app.inject({ method: 'GET', url: '/api/v2/barong/identity/captcha/challenge' })
      ).json() as Challenge;
      const solution = await solveChallenge({ challenge, deriveKey });
      const captcha = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
      const contact = (app: TestApp) =>
        app.app.inject({
          method: 'POST',
          url: '/api/v2/barong/identity/inquiry',
          payload: {
            email: 'once@edge.test',
            subject: 'Hello',
            name: 'Once',
            message: 'Testing',
            captcha_response: captcha,
          },
          remoteAddress: nextIp(),
        });
      expect((await contact(first)).statusCode).toBe(201);
      const replay = await contact(second);
      expect(replay.statusCode).toBe(422);
      expect(replay.json()).toEqual({ errors: ['identity.captcha.verification_failed'] });
      expect((await contact(first)).statusCode).toBe(422);
      const stored = await first.db.pool.query(
        `select count(*)::int as n from contact_messages where email = 'once@edge.test'`,
      );
      expect(stored.rows[0].n).toBe(1);
    } finally {
      await second.app.close();
      await first.close();
    }
  }, 30_000);
});
