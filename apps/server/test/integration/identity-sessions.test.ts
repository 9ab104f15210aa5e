import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import {
  activeUser,
  cookieHeader,
  lastCode,
  loginWithEmailCode,
  postFrom,
  registration,
} from '../support/identity.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  postFrom(t)(url, payload, headers);

describe('sessions and CSRF', () => {
  it('needs a session for resource routes', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v2/barong/resource/users/me' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ errors: ['authz.invalid_session'] });
    const forged = await t.app.inject({
      method: 'GET',
      url: '/api/v2/barong/resource/users/me',
      headers: { cookie: 'session=forged' },
    });
    expect(forged.json()).toEqual({ errors: ['authz.invalid_session'] });
  });

  it('refuses a mutating cookie request without or with a wrong CSRF token (401, as Barong), and logs out with the cookie alone', async () => {
    const { email, password } = await activeUser(t, 'csrf@example.com');
    const { cookie } = await loginWithEmailCode(t, email, password);
    const change = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/v2/barong/resource/users/anti_phishing',
        headers: { cookie, ...headers },
        payload: { phrase: 'blue heron' },
      });
    const missing = await change({});
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toEqual({ errors: ['authz.missing_csrf_token'] });
    const wrong = await change({ 'x-csrf-token': 'nope' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ errors: ['authz.csrf_token_mismatch'] });
    const out = await t.app.inject({
      method: 'DELETE',
      url: '/api/v2/barong/identity/sessions',
      headers: { cookie },
    });
    expect(out.statusCode).toBe(200);
    expect(cookieHeader(out.headers['set-cookie'])).toBe('session=');
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/v2/barong/resource/users/me',
      headers: { cookie },
    });
    expect(me.statusCode).toBe(401);
  });

  it('marks a contact message from a signed-in user as Authorize User', async () => {
    const { email, password } = await activeUser(t, 'writer@example.com');
    const { cookie } = await loginWithEmailCode(t, email, password);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v2/barong/identity/inquiry',
      headers: { cookie },
      payload: { email, subject: 'Hi', name: 'Writer', message: 'From my account' },
    });
    expect(res.statusCode).toBe(201);
    const row = (
      await t.db.pool.query(`select user_type, user_id from contact_messages where email = $1`, [email])
    ).rows[0];
    expect(row.user_type).toBe('Authorize User');
    expect(row.user_id).not.toBeNull();
  });
});

describe('smaller identity flows', () => {
  it('changes the number of a pending registration and sends the new one a code', async () => {
    const registered = await post('/identity/users', registration('change-number@example.com'));
    const token = registered.json().registration_token as string;
    await t.db.pool.query(`update one_time_codes set created_at = now() - interval '2 minutes'`);
    const res = await post('/identity/users/edit/phone_number', {
      email: 'change-number@example.com',
      country_code: '81',
      phone_number: '09011112222',
      registration_token: token,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ email: 'change-number@example.com', phone_number: '819011112222' });
    expect(await lastCode(t, '819011112222')).toMatch(/^\d{6}$/);
    // Verified since: the token of its registration changes nothing any more.
    await t.db.pool.query(`update users set state = 'active' where email = 'change-number@example.com'`);
    const refused = await post('/identity/users/edit/phone_number', {
      email: 'change-number@example.com',
      country_code: '81',
      phone_number: '09011113333',
      registration_token: token,
    });
    expect(refused.json()).toEqual({ errors: ['identity.user.already_verified'] });
  });

  it('confirms the email alone at level 1', async () => {
    await post('/identity/users', registration('email-only@example.com'));
    const bad = await post('/identity/users/email/confirm_code', {
      email: 'email-only@example.com',
      code: '000000',
    });
    const code = await lastCode(t, 'email-only@example.com');
    if (code !== '000000') expect(bad.json()).toEqual({ errors: ['identity.user.invalid_email_code'] });
    const ok = await post('/identity/users/email/confirm_code', { email: 'email-only@example.com', code });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toEqual({ email: 'email-only@example.com', level: 1 });
  });

  it('checks a reset link before the form is shown', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v2/barong/identity/sessions/verify_access_token?access_token=not-a-real-token',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ errors: ['identity.user.invalid_reset_token'] });
  });

  it('answers account/members/me on the trading service', async () => {
    const { email, password } = await activeUser(t, 'member@example.com');
    const { cookie } = await loginWithEmailCode(t, email, password);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v2/peatio/account/members/me',
      headers: { cookie },
    });
    expect(res.json()).toMatchObject({ email, level: 2, state: 'active' });
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v2/peatio/account/members/me' });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('per-account login limit', () => {
  it('answers 429 after 20 attempts on one account, whatever the addresses', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const res = await post('/identity/sessions', {
        email: 'spray-target@example.com',
        password: `Wrong#${i}xyz`,
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
  });
});
