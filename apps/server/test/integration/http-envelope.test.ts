import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { plainUser, sessionFor } from '../support/core.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('public routes', () => {
  it('returns the server time as an ISO 8601 string', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v2/peatio/public/timestamp' });
    expect(res.statusCode).toBe(200);
    const time = Date.parse(res.json());
    expect(Math.abs(time - Date.now())).toBeLessThan(5000);
  });

  it('reports alive when the database answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v2/peatio/public/health/alive' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'alive' });
  });

  it('answers barong ping', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v2/barong/identity/ping' });
    expect(res.json()).toEqual({ ping: 'pong' });
  });
});

describe('error envelope', () => {
  it('refuses a NUL byte in a path, query or stored field with a dotted code, never a 500', async () => {
    const headers = await sessionFor(t.deps.sessions, await plainUser(t.db.pool, 'nul@envelope.test'));
    for (const url of [
      '/api/v2/peatio/market/orders?market=%00',
      '/api/v2/peatio/market/trades?market=%00',
      '/api/v2/peatio/account/deposit_address/%00',
      '/api/v2/peatio/public/markets/eth%00btc/depth',
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers });
      expect(res.statusCode, url).toBe(422);
      expect(res.json(), url).toEqual({ errors: ['server.invalid_params'] });
    }
    const body = await t.app.inject({
      method: 'PUT',
      url: '/api/v2/peatio/account/fav_market',
      headers,
      payload: { market_id: 'eth\u0000btc' },
    });
    expect(body.statusCode).toBe(422);
    expect(body.json().errors).toHaveLength(1);
  });

  it('answers a URL that cannot be decoded in the envelope, without echoing it', async () => {
    for (const url of ['/%c0%ae%c0%ae/etc/passwd', '/api/v2/peatio/public/markets/%c0/depth']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toEqual({ errors: ['server.invalid_params'] });
    }
  });

  it('uses a dotted code for unknown API paths', async () => {
    for (const url of ['/api/v2/peatio/nothing', '/api/v2/barong/identity/nope', '/api/v3/x']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ errors: ['server.route.not_found'] });
    }
  });

  it('refuses malformed JSON with 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v2/barong/identity/inquiry',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ errors: ['server.invalid_json'] });
  });

  it('refuses an unsupported content type with 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v2/barong/identity/inquiry',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ errors: ['server.unsupported_media_type'] });
  });

  it('answers 405 with Allow for a path that exists with another method, 404 for an unknown one', async () => {
    const wrong = await t.app.inject({ method: 'DELETE', url: '/api/v2/peatio/public/timestamp?x=1' });
    expect([wrong.statusCode, wrong.json()]).toEqual([405, { errors: ['server.method_not_allowed'] }]);
    expect(wrong.headers.allow).toBe('GET');
    const post = await t.app.inject({ method: 'GET', url: '/api/v2/barong/identity/users' });
    expect([post.statusCode, post.headers.allow]).toEqual([405, 'POST']);
    const unknown = await t.app.inject({ method: 'DELETE', url: '/api/v2/peatio/public/no-such-thing' });
    expect([unknown.statusCode, unknown.json()]).toEqual([404, { errors: ['server.route.not_found'] }]);
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v2/barong/identity/inquiry',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ message: 'x'.repeat(1_100_000) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ errors: ['server.payload_too_large'] });
  });

  it("sets the API's security headers on its answers, and the web app's on everything else", async () => {
    const api = await t.app.inject({ method: 'GET', url: '/api/v2/peatio/public/timestamp' });
    expect(api.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(api.headers['x-frame-options']).toBe('DENY');
    expect(api.headers['x-content-type-options']).toBe('nosniff');
    expect(api.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    expect(api.headers['cross-origin-resource-policy']).toBe('same-origin');
    // What only a rendered document uses is left out of JSON answers.
    expect(api.headers['cross-origin-opener-policy']).toBeUndefined();
    expect(api.headers['x-dns-prefetch-control']).toBeUndefined();
    const page = await t.app.inject({ method: 'GET', url: '/markets' });
    expect(String(page.headers['content-security-policy'])).toContain("default-src 'self'");
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
  });
});

describe('health when the database is gone', () => {
  it('answers 503 with a code', async () => {
    const broken = await createTestApp();
    // The simulators' deliveries start with the app; a query of theirs still waiting for a connection when the pool
    // ends would never be answered (pg's pool leaves its queue waiting once ended), nor would the close that waits
    // for it. Their first passes end first.
    const { kycSimulator, cardSimulator, bankSimulator, smsSimulator } = broken.deps;
    for (const simulator of [kycSimulator, cardSimulator, bankSimulator, smsSimulator])
      await simulator?.delivery.idle();
    await broken.db.pool.end();
    const res = await broken.app.inject({ method: 'GET', url: '/api/v2/peatio/public/health/alive' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ errors: ['server.database_unavailable'] });
    await broken.app.close();
  });
});
