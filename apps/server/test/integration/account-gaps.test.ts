import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { plainUser, sessionFor } from '../support/core.ts';
import { activeUser, lastCode, loginWithEmailCode, nextIp, registration } from '../support/identity.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const ETH = 10n ** 18n;
const USDT = 1_000_000n;

async function trader(email: string, credits: Record<string, bigint>) {
  const id = await plainUser(t.db.pool, email);
  for (const [currency, amount] of Object.entries(credits)) {
    await t.deps.core.sequencer.submit({ type: 'Credit', user: id, currency, amount, kind: 'deposit' });
  }
  return { id, headers: await sessionFor(t.deps.sessions, id) };
}
const peatio = (method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: object) =>
  t.app.inject({ method, url: `/api/v2/peatio${url}`, headers, ...(payload ? { payload } : {}) });

describe('Peatio member and portfolio', () => {
  it('GET /account/me answers the member entity with its accounts', async () => {
    const who = await trader('me@example.com', { eth: 2n * ETH });
    const uid = (await t.db.pool.query('select uid from users where id = $1', [who.id])).rows[0].uid;
    const res = await peatio('GET', '/account/me', who.headers);
    expect(res.statusCode).toBe(200);
    const me = res.json();
    expect(me).toMatchObject({ uid, email: 'me@example.com', level: 2, role: 'member', state: 'active' });
    expect(me.id).toBeUndefined();
    expect(me.accounts).toContainEqual({ currency: 'eth', balance: '2', locked: '0' });
    expect(typeof me.created_at).toBe('string');
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v2/peatio/account/me' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('GET /account/portfolio values each holding in USDT and totals them, as decimal strings', async () => {
    const bidder = await trader('bidder@example.com', { usdt: 5000n * USDT });
    const bid = await peatio('POST', '/market/orders', bidder.headers, {
      market: 'ethusdt',
      side: 'buy',
      volume: '1',
      price: '2000',
      ord_type: 'limit',
    });
    expect(bid.statusCode).toBe(201);
    const who = await trader('portfolio@example.com', { eth: (3n * ETH) / 2n, usdt: 100n * USDT });
    const ask = await peatio('POST', '/market/orders', who.headers, {
      market: 'ethusdt',
      side: 'sell',
      volume: '0.5',
      price: '3000',
      ord_type: 'limit',
    });
    expect(ask.statusCode).toBe(201);
    // Stamped with the app's clock (moved ten minutes on), in seconds.
    t.clock.advance(10 * 60_000);
    for (const path of ['/account/portfolio', '/account/update/portfolio']) {
      const res = await peatio('GET', path, who.headers);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(Math.abs(body.at - t.clock.now() / 1000)).toBeLessThan(60);
      expect(body).toMatchObject({ currency: 'usdt', total: '3100' });
      expect(body.balances).toEqual([
        { currency: 'eth', balance: '1', locked: '0.5', total: '1.5', currency_usdt: '2000', value: '3000' },
        { currency: 'usdt', balance: '100', locked: '0', total: '100', currency_usdt: '1', value: '100' },
      ]);
    }
  });
});

describe('Barong identity step, generate_code and the user id', () => {
  it('POST /identity answers the state only with the right password, and unknown emails like wrong passwords', async () => {
    const email = 'pending-state@example.com';
    const body = registration(email);
    const reg = await t.app.inject({
      method: 'POST',
      url: '/api/v2/barong/identity/users',
      payload: body,
      remoteAddress: nextIp(),
    });
    expect(reg.statusCode).toBe(201);
    const ask = (payload: object) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v2/barong/identity',
        payload: { session_type: 'email', ...payload },
        remoteAddress: nextIp(),
      });
    const ok = await ask({ email, password: body.password });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toEqual({ state: 'pending', level: 0 });

    const wrong = await ask({ email, password: 'Wrong-Passw0rd#' });
    const unknown = await ask({ email: 'nobody-here@example.com', password: 'Wrong-Passw0rd#' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(wrong.statusCode);
    expect(unknown.json().errors).toEqual(wrong.json().errors);
    expect(JSON.stringify(unknown.json())).not.toContain('state');

    const active = await activeUser(t, 'active-state@example.com');
    const activeRes = await ask({ email: active.email, password: active.password });
    expect(activeRes.json()).toMatchObject({ state: 'active' });
  });

  it('POST /resource/generate_code emails a one-time code kept only as a hash, once a minute', async () => {
    const { email, password } = await activeUser(t, 'gen-code@example.com');
    const { cookie, csrf } = await loginWithEmailCode(t, email, password);
    const headers = { cookie, 'x-csrf-token': csrf };
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/v2/barong/resource/generate_code' });
    expect(anonymous.statusCode).toBe(401);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v2/barong/resource/generate_code',
      headers,
      remoteAddress: nextIp(),
    });
    expect(res.statusCode).toBe(201);
    const code = await lastCode(t, email);
    expect(code).toMatch(/^\d{6}$/);
    const stored = await t.db.pool.query(
      `select code_hash from one_time_codes where purpose = 'sensitive_action' and destination = lower($1)`,
      [email],
    );
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0].code_hash).not.toContain(code);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/v2/barong/resource/generate_code',
      headers,
      remoteAddress: nextIp(),
    });
    expect(again.statusCode).toBe(429);
    expect(again.json()).toEqual({ errors: ['identity.session.email_resend_limit'] });
  });

  it('GET /resource/users/me carries id, the uid rather than the sequential database id', async () => {
    const { email, password } = await activeUser(t, 'user-id@example.com');
    const { cookie } = await loginWithEmailCode(t, email, password);
    const me = (
      await t.app.inject({ method: 'GET', url: '/api/v2/barong/resource/users/me', headers: { cookie } })
    ).json();
    expect(me.id).toBe(me.uid);
    expect(me.id).toMatch(/^ID[0-9A-F]{10}$/);
  });
});
