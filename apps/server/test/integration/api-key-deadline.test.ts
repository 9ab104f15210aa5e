import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/clock.ts';
import { NONCE_CHECK_DEADLINE_MS, signature } from '../../src/modules/api-keys/hmac.ts';
import { apiKeyFor } from '../support/api-key.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { activeUser } from '../support/identity.ts';
import { within } from '../support/within.ts';

// A signed request that waited inside the server (here: for a database stalled by a lock) is not an expired one:
// it gets 503 `server.busy` with a retry hint, never 401 `authz.nonce_expired`, which a bot would not retry. The
// wait is on the app's clock, moved by the test: nothing sleeps for the deadline.
let t: TestApp;
const clock = new TestClock();
beforeAll(async () => {
  t = await createTestApp({ clock });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const ME = '/api/v2/barong/resource/users/me';
let nonceTick = 0;
/** A nonce of the app's time: a client in step with the server (whose clock the test moves). */
const nextNonce = () => {
  nonceTick = Math.max(clock.now(), nonceTick + 1);
  return String(nonceTick);
};
const signed = (kid: string, secret: string, nonce = nextNonce()) => ({
  'x-auth-apikey': kid,
  'x-auth-nonce': nonce,
  'x-auth-signature': signature(secret, nonce, kid),
});

describe('a signed request that waited inside the server', () => {
  it('measures the nonce against the arrival: an old nonce is expired, however fast the answer', async () => {
    const auth = t.deps.apiKeys;
    const headers = signed('nokey', 'secret', String(clock.now() - 6_000));
    await expect(auth.authenticate(headers, clock.now(), '127.0.0.1')).rejects.toMatchObject({
      status: 401,
      codes: ['authz.nonce_expired'],
    });
    // Signed at its arrival, but checked after a wait past the deadline: busy, not expired.
    const arrived = clock.now() - NONCE_CHECK_DEADLINE_MS - 1_000;
    await expect(
      auth.authenticate(signed('nokey', 'secret', String(arrived)), arrived, '127.0.0.1'),
    ).rejects.toMatchObject({
      status: 503,
      codes: ['server.busy'],
    });
  });

  it('answers 503 server.busy with Retry-After when the key lookup waited past the deadline, then works', async () => {
    await activeUser(t, 'stalled@example.com');
    const { kid, secret } = await apiKeyFor(t.db.pool, 'stalled@example.com');
    const stall = await t.db.ownerPool.connect();
    try {
      await stall.query('begin');
      await stall.query('lock table api_keys in access exclusive mode');
      const answer = t.app.inject({ method: 'GET', url: ME, headers: signed(kid, secret) });
      // Once the key's lookup waits behind the lock, the deadline passes on the app's clock; then the lock goes.
      await within(10_000, async () => {
        const waiting = await t.db.pool.query(
          `select count(*)::int as n from pg_stat_activity
           where datname = current_database() and wait_event_type = 'Lock' and query ilike '%api_keys%'`,
        );
        return waiting.rows[0].n > 0;
      });
      clock.advance(NONCE_CHECK_DEADLINE_MS + 1);
      await stall.query('commit');
      const res = await answer;
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ errors: ['server.busy'] });
      expect(res.headers['retry-after']).toBe('1');
    } finally {
      stall.release();
    }
    // The retry, signed anew, goes through (two-factor was set behind the app's back: it is heard within a second).
    await within(2_000, async () => {
      const res = await t.app.inject({ method: 'GET', url: ME, headers: signed(kid, secret) });
      return res.statusCode === 200;
    });
  }, 20_000);
});
