import { execFileSync } from 'node:child_process';
import type { OutboxMessage } from '@exchange/shared';
import type { TestApp } from './app.ts';

let client = 0;
/** A distinct client address per call, so per-IP rate limits stay out of the way of functional tests. */
export const nextIp = () => `10.2.${Math.floor(++client / 250) % 250}.${client % 250}`;

/** A valid registration body; override fields per test. */
export function registration(email: string, overrides: Record<string, unknown> = {}) {
  return {
    first_name: 'Priya',
    middle_name: '',
    last_name: 'Sharma',
    email,
    country: 'IN',
    country_code: '91',
    // An Indian mobile number (10 digits from 9), typed with its trunk 0: the app takes mobile numbers only.
    phone_number: `09${String(Math.floor(Math.random() * 1e9)).padStart(9, '7')}`,
    password: 'Tr4ding-Desk#Nova',
    ...overrides,
  };
}

/**
 * The newest messages sent to `to` by email or SMS, newest first, read as a developer reads them: through the
 * dev outbox API (`GET /dev/outbox`), which shows each secret once (the table keeps none after).
 */
export async function outbox(t: TestApp, to: string, limit = 1): Promise<OutboxMessage[]> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/v2/barong/dev/outbox?to=${encodeURIComponent(to)}&limit=${limit}`,
  });
  if (res.statusCode !== 200) throw new Error(`dev outbox: ${res.statusCode} ${res.body}`);
  return res.json() as OutboxMessage[];
}

/** The newest secret (code, pin, reset token) sent to `to` by email or SMS, taken from the dev outbox. */
export async function lastCode(t: TestApp, to: string): Promise<string> {
  const [message] = await outbox(t, to);
  if (!message?.secret) throw new Error(`no code sent to ${to}`);
  return message.secret;
}

/** The `name=value` pairs of a response's Set-Cookie headers, ready for a Cookie header. */
export function cookieHeader(setCookie: string | string[] | undefined): string {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return list.map((c) => c.split(';')[0]).join('; ');
}

/** Registers and verifies an account (`overrides` to the registration body); returns its email, phone and password. */
export async function activeUser(t: TestApp, email: string, overrides: Record<string, unknown> = {}) {
  const body = registration(email, overrides);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v2/barong/identity/users',
    payload: body,
    remoteAddress: nextIp(),
  });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.body}`);
  const phone = res.json().phone_number as string;
  const verify = await t.app.inject({
    method: 'POST',
    remoteAddress: nextIp(),
    url: '/api/v2/barong/identity/users/verify_account',
    payload: {
      email,
      phone_number: phone,
      email_otp: await lastCode(t, email),
      phone_otp: await lastCode(t, phone),
    },
  });
  if (verify.statusCode !== 200) throw new Error(`verify failed: ${verify.body}`);
  return { email, phone, password: body.password };
}

/** Logs in with the emailed 5-digit code; returns the cookie and CSRF token. */
export async function loginWithEmailCode(t: TestApp, email: string, password: string) {
  const sent = await t.app.inject({
    method: 'POST',
    remoteAddress: nextIp(),
    url: '/api/v2/barong/identity/sessions/resent_otp',
    payload: { session_type: 'email', email, password },
  });
  if (sent.statusCode !== 201) throw new Error(`resent_otp failed: ${sent.body}`);
  const res = await t.app.inject({
    method: 'POST',
    remoteAddress: nextIp(),
    url: '/api/v2/barong/identity/sessions',
    payload: {
      session_type: 'email',
      email,
      password,
      code: await lastCode(t, email),
      authentication_state: 'web',
    },
  });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.body}`);
  return {
    cookie: cookieHeader(res.headers['set-cookie']),
    csrf: res.json().csrf_token as string,
    user: res.json(),
    setCookie: res.headers['set-cookie'],
  };
}

/** A TOTP code from Debian's oathtool, an implementation independent of ours; `offsetSeconds` shifts the clock. */
export function oathtoolCode(secret: string, offsetSeconds = 0): string {
  const at = Math.floor(Date.now() / 1000) + offsetSeconds;
  return execFileSync('oathtool', ['--totp', '-b', secret, '--now', `@${at}`], { encoding: 'utf8' }).trim();
}

/** Lets the next TOTP code of the same 30-second step be used (as if time had moved on). */
export async function forgetUsedTotp(t: TestApp, email: string): Promise<void> {
  await t.db.pool.query('update users set otp_last_step = 0 where lower(email) = lower($1)', [email]);
}

/** Enables two-factor for a signed-in user; returns the base32 secret. */
export async function enableTwoFactor(t: TestApp, session: { cookie: string; csrf: string }, email: string) {
  const headers = { cookie: session.cookie, 'x-csrf-token': session.csrf };
  const qr = await t.app.inject({
    method: 'POST',
    url: '/api/v2/barong/resource/otp/generate_qrcode',
    headers,
  });
  const secret = new URL(qr.json().data.url).searchParams.get('secret') ?? '';
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v2/barong/resource/otp/enable',
    headers,
    // The code of the app's clock, wherever a test moved it.
    payload: { code: oathtoolCode(secret, Math.round(t.clock.offset / 1000)) },
  });
  if (res.statusCode !== 201) throw new Error(`enable 2FA failed: ${res.body}`);
  await forgetUsedTotp(t, email);
  return secret;
}

/** A POST to the identity service from a fresh client address (per-IP limits stay out of functional tests). */
export function postFrom(t: TestApp) {
  return (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v2/barong${url}`,
      payload: payload as Record<string, unknown>,
      headers,
      remoteAddress: nextIp(),
    });
}

/** A session to send with {@link barongCall}: the cookie and its CSRF token. */
export type BarongSession = { cookie: string; csrf: string };

/** Calls the identity service (`/api/v2/barong`) of the test app, with a session when given, each from its own address. */
export function barongCall(app: () => TestApp) {
  return (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    session?: BarongSession,
    payload?: unknown,
  ) =>
    app().app.inject({
      method,
      url: `/api/v2/barong${url}`,
      headers: session ? { cookie: session.cookie, 'x-csrf-token': session.csrf } : {},
      payload: payload as Record<string, unknown> | undefined,
      remoteAddress: nextIp(),
    });
}

/** A new active user, signed in with the emailed code: its email, phone, password and session. */
export async function signedInUser(t: TestApp, email: string, overrides: Record<string, unknown> = {}) {
  const user = await activeUser(t, email, overrides);
  return { ...user, session: await loginWithEmailCode(t, user.email, user.password) };
}
