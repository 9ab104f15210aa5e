import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { activeUser, lastCode, nextIp, registration } from '../support/identity.ts';

// Login CSRF and cross-site use of the unauthenticated identity routes (issue 25, item 5).
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const EVIL = 'https://evil.example';
const send = (url: string, payload: string | Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: `/api/v2/barong${url}`, payload, headers, remoteAddress: nextIp() });
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** A fresh emailed login code for the account (the previous one is aged past the resend pause first). */
async function loginCode(email: string, password: string): Promise<string> {
  await t.db.pool.query(`update one_time_codes set created_at = now() - interval '2 minutes'`);
  const sent = await send('/identity/sessions/resent_otp', { email, password });
  expect(sent.statusCode).toBe(201);
  return lastCode(t, email);
}

describe('login from a page of another site', () => {
  it("refuses a cross-site form post of the attacker's credentials and sets no cookie", async () => {
    const { email, password } = await activeUser(t, 'attacker@example.com');
    const code = await loginCode(email, password);
    const planted = await send('/identity/sessions', form({ email, password, code }), {
      ...FORM,
      origin: EVIL,
      'sec-fetch-site': 'cross-site',
    });
    expect(planted.statusCode).toBe(403);
    expect(planted.json()).toEqual({ errors: ['authz.origin_not_allowed'] });
    expect(planted.headers['set-cookie']).toBeUndefined();
    // A form with no Origin at all (an old browser, or a page that hides it) is refused too: JSON only.
    const bare = await send('/identity/sessions', form({ email, password, code }), FORM);
    expect(bare.statusCode).toBe(415);
    expect(bare.json()).toEqual({ errors: ['server.unsupported_media_type'] });
    expect(bare.headers['set-cookie']).toBeUndefined();
    // JSON that a foreign page sent (after a preflight we never grant, or from a browser without CORS).
    const foreign: Record<string, string>[] = [
      { origin: EVIL },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of foreign) {
      const res = await send('/identity/sessions', { email, password, code }, headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    // None of those used the code: our own page logs in with it, a program (no Origin) with the next one.
    const ours = await send(
      '/identity/sessions',
      { email, password, code },
      { origin: new URL(t.deps.config.publicUrl).origin, 'sec-fetch-site': 'same-origin' },
    );
    expect(ours.statusCode).toBe(200);
    expect(ours.headers['set-cookie']).toBeDefined();
    const program = await send('/identity/sessions', {
      email,
      password,
      code: await loginCode(email, password),
    });
    expect(program.statusCode).toBe(200);
  });

  it('takes our own page behind the development proxy (Origin of the host it was sent to)', async () => {
    const { email, password } = await activeUser(t, 'proxied@example.com');
    const res = await send(
      '/identity/sessions',
      { email, password },
      { host: 'localhost:5173', origin: 'http://localhost:5173' },
    );
    expect(res.json().errors).toEqual(['identity.session.missing_otp']);
  });
});

describe('the other routes that act on an account without a session', () => {
  it.each([
    '/identity/users',
    '/identity/users/verify_account',
    '/identity/users/send_otp/email',
    '/identity/users/send_otp/phone',
    '/identity/users/edit/phone_number',
    '/identity/users/email/generate_code',
    '/identity/users/email/confirm_code',
    '/identity',
    '/identity/sessions/resent_otp',
    '/identity/users/password/generate_code',
    '/identity/users/password/confirm_code',
  ])('refuses %s from a page of another site', async (url) => {
    const res = await send(url, {}, { origin: EVIL });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ errors: ['authz.origin_not_allowed'] });
  });

  it('registers nobody and resets nothing from a foreign page', async () => {
    const body = registration('cross-register@example.com');
    expect((await send('/identity/users', body, { 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    const users = await t.db.pool.query(`select 1 from users where email = 'cross-register@example.com'`);
    expect(users.rowCount).toBe(0);
    // The same body from a program registers.
    expect((await send('/identity/users', body)).statusCode).toBe(201);
  });
});
