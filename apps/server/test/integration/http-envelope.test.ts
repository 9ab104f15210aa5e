import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';

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

  it('sets security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v2/peatio/public/timestamp' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(String(res.headers['content-security-policy'])).toContain("default-src 'self'");
  });
});

describe('health when the database is gone', () => {
  it('answers 503 with a code', async () => {
    const broken = await createTestApp();
    await broken.db.pool.end();
    const res = await broken.app.inject({ method: 'GET', url: '/api/v2/peatio/public/health/alive' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ errors: ['server.database_unavailable'] });
    await broken.app.close();
  });
});
