import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routesOf } from '../../src/http/openapi.ts';
import { randomToken, sha256 } from '../../src/modules/identity/crypto.ts';
import { apiKeyFor } from '../support/api-key.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import {
  type BarongSession,
  barongCall,
  enableTwoFactor,
  forgetUsedTotp,
  nextIp,
  oathtoolCode,
  signedInUser,
} from '../support/identity.ts';
import { adminCall, person, stepUp } from '../support/staff.ts';

// Issue 25, item 7: reset links that outlive a change, API keys on security settings, caching of personal answers.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const call = barongCall(() => t);
const NEW_PASSWORD = 'Fresh-Start#42';

/**
 * An outstanding reset link of `email`, stored as requestPasswordReset stores one (its hash, an hour to live).
 * Made directly, not read from a mail: the outbox need not keep the link.
 */
async function resetLink(email: string): Promise<string> {
  const token = randomToken(32);
  await t.db.pool.query(
    `insert into password_resets (token_hash, user_id, expires_at)
     select $1, id, now() + interval '1 hour' from users where email = $2`,
    [sha256(token), email],
  );
  return token;
}
const useLink = (token: string) =>
  call('POST', '/identity/users/password/confirm_code', undefined, {
    reset_password_token: token,
    password: NEW_PASSWORD,
    confirm_password: NEW_PASSWORD,
  });
const REFUSED = { errors: ['identity.user.invalid_reset_token'] };

describe('reset links issued before a change', () => {
  it('are ended by a password change in Settings', async () => {
    const { email, password, session } = await signedInUser(t, 'link-change@example.com');
    const link = await resetLink(email);
    const changed = await call('PUT', '/resource/users/password', session, {
      old_password: password,
      new_password: 'Chosen-In#Settings7',
      confirm_password: 'Chosen-In#Settings7',
    });
    expect(changed.statusCode).toBe(201);
    expect((await useLink(link)).json()).toEqual(REFUSED);
  });

  it('are ended by turning two-factor on, and again by turning it off', async () => {
    const { email, session } = await signedInUser(t, 'link-2fa@example.com');
    const before = await resetLink(email);
    const secret = await enableTwoFactor(t, session, email);
    expect((await useLink(before)).json()).toEqual(REFUSED);
    const during = await resetLink(email);
    await forgetUsedTotp(t, email);
    const off = await call('POST', '/resource/otp/disable', session, { code: oathtoolCode(secret) });
    expect(off.statusCode).toBe(201);
    expect((await useLink(during)).json()).toEqual(REFUSED);
  });

  it('are ended by a staff lock (and stay ended after the unlock) and by a staff 2FA reset', async () => {
    const support = await person(t, 'support-links@example.com', 'support');
    await stepUp(t, support);
    const { email, session } = await signedInUser(t, 'link-staff@example.com');
    const uid = (await call('GET', '/resource/users/me', session)).json().uid as string;
    const locked = await resetLink(email);
    for (const action of ['lock', 'unlock'])
      expect(
        (await adminCall(t, 'POST', `/users/${uid}/${action}`, support.headers, { reason: 'probe' }))
          .statusCode,
      ).toBe(200);
    expect((await useLink(locked)).json()).toEqual(REFUSED);

    await t.db.pool.query(`update users set otp = true, otp_secret_enc = 'x' where email = $1`, [email]);
    const reset = await resetLink(email);
    const off = await adminCall(t, 'POST', `/users/${uid}/reset_2fa`, support.headers, {
      reason: 'lost phone',
    });
    expect(off.statusCode).toBe(200);
    expect((await useLink(reset)).json()).toEqual(REFUSED);
  });

  it('are all ended by a reset with one of them, and a link made after the change still works', async () => {
    const { email } = await signedInUser(t, 'link-reset@example.com');
    const first = await resetLink(email);
    const second = await resetLink(email);
    expect((await useLink(first)).statusCode).toBe(201);
    expect((await useLink(second)).json()).toEqual(REFUSED);
    expect((await useLink(await resetLink(email))).statusCode).toBe(201);
  });
});

/** Signed API-key headers (each call its own nonce). */
let nonce = 0;
const signed = (key: { kid: string; secret: string }) => {
  nonce = Math.max(nonce + 1, Date.now());
  const n = String(nonce);
  return {
    'x-auth-apikey': key.kid,
    'x-auth-nonce': n,
    'x-auth-signature': createHmac('sha256', key.secret)
      .update(n + key.kid)
      .digest('hex'),
  };
};
const withKey = (key: { kid: string; secret: string }, method: string, url: string, payload?: object) =>
  t.app.inject({
    method: method as 'GET',
    url,
    headers: signed(key),
    remoteAddress: nextIp(),
    ...(payload ? { payload } : {}),
  });
const concrete = (url: string) =>
  url.replace(/:(\w+)/g, (_m, name: string) => (name === 'kid' ? 'ab12' : '1'));

describe('an API key alone', () => {
  it('changes no security setting, profile or user data and sends no code: every resource change is refused', async () => {
    const { email } = await signedInUser(t, 'key-holder@example.com');
    const key = await apiKeyFor(t.db.pool, email);
    const writes = routesOf(t.app).filter(
      (r) => r.url.startsWith('/api/v2/barong/resource/') && r.method !== 'GET',
    );
    expect(writes.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining([
        'PUT /api/v2/barong/resource/users/anti_phishing',
        'PUT /api/v2/barong/resource/users/me',
        'POST /api/v2/barong/resource/generate_code',
        'PUT /api/v2/barong/resource/users/password',
        'POST /api/v2/barong/resource/api_keys',
        'POST /api/v2/barong/resource/phones',
        'PUT /api/v2/barong/resource/profiles',
      ]),
    );
    const mails = async () =>
      (await t.db.pool.query('select count(*)::int as n from mail_outbox where recipient = $1', [email]))
        .rows[0].n;
    const before = await mails();
    for (const route of writes) {
      const res = await withKey(key, route.method, concrete(route.url), {
        phrase: 'attacker phrase',
        data: '{"language":"xx"}',
      });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(res.json()).toEqual({ errors: ['authz.session_required'] });
    }
    const user = (
      await t.db.pool.query('select anti_phishing_phrase, data from users where email = $1', [email])
    ).rows[0];
    expect(user.anti_phishing_phrase).toBeNull();
    expect(user.data ?? '').not.toContain('xx');
    expect(await mails()).toBe(before);
  });

  it('reads no card number, holder document or PIN, and no KYC upload token', async () => {
    const { email } = await signedInUser(t, 'key-card@example.com');
    const key = await apiKeyFor(t.db.pool, email);
    for (const [method, url] of [
      ['GET', '/api/v2/peatio/account/cards/reveal?card_number=1234'],
      ['POST', '/api/v2/peatio/account/password/retrieval'],
      ['GET', '/api/v2/peatio/account/cardholder/documents/passport'],
      ['POST', '/api/v2/peatio/account/cardholder'],
      ['GET', '/api/v2/barong/resource/sumsub/token'],
    ] as const) {
      const res = await withKey(key, method, url, method === 'POST' ? {} : undefined);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({ errors: ['authz.session_required'] });
    }
  });

  it('still does what programs do: reads the user and balances, lists its keys', async () => {
    const { email } = await signedInUser(t, 'key-program@example.com');
    const key = await apiKeyFor(t.db.pool, email);
    for (const url of [
      '/api/v2/barong/resource/users/me',
      '/api/v2/barong/resource/api_keys',
      '/api/v2/peatio/account/balances',
      '/api/v2/peatio/market/orders',
    ])
      expect((await withKey(key, 'GET', url)).statusCode, url).toBe(200);
  });
});

describe('personal answers', () => {
  it('carry Cache-Control: no-store on every private GET, by session or API key', async () => {
    const { email, session } = await signedInUser(t, 'no-store@example.com');
    const key = await apiKeyFor(t.db.pool, email);
    const headers = (s: BarongSession) => ({ cookie: s.cookie, 'x-csrf-token': s.csrf });
    const gets = routesOf(t.app).filter(
      (r) =>
        r.method === 'GET' && /^\/api\/v2\/(barong|peatio|admin)\//.test(r.url) && !r.url.includes('ranger'),
    );
    let checked = 0;
    for (const route of gets) {
      const url = concrete(route.url);
      const anonymous = await t.app.inject({ method: 'GET', url, remoteAddress: nextIp() });
      if (anonymous.statusCode !== 401) continue;
      checked++;
      const bySession = await t.app.inject({
        method: 'GET',
        url,
        headers: headers(session),
        remoteAddress: nextIp(),
      });
      expect(bySession.headers['cache-control'], url).toMatch(/no-store/);
      if (!url.startsWith('/api/v2/admin/')) {
        const byKey = await withKey(key, 'GET', url);
        expect(byKey.headers['cache-control'], url).toMatch(/no-store/);
      }
    }
    expect(checked).toBeGreaterThan(30);
    for (const url of ['/api/v2/peatio/account/balances', '/api/v2/barong/resource/users/me']) {
      const res = await t.app.inject({
        method: 'GET',
        url,
        headers: headers(session),
        remoteAddress: nextIp(),
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });
});
