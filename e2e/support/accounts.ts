import type { OutboxMessage } from '@exchange/shared';
import type { Page, Route } from 'playwright-core';
import { captchaResponse } from './captcha.ts';
import { advanceServerClock } from './clock.ts';
import { suiteApp } from './suite-app.ts';

/** The password every account made by the e2e tests uses. */
export const PASSWORD = 'Secret-pass1';

/** The password of the seeded demo users (alice@, bob@ and the demo staff). */
export const DEMO_PASSWORD = 'Demo-pass-2026!';

/** A URL of the identity service of the started app. */
export const barong = (path: string) => `${suiteApp().baseUrl}/api/v2/barong${path}`;

/** A value unique to this run, for emails and phone numbers. */
export const unique = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;

/**
 * Messages the app sent to an email or phone, newest first, from the dev outbox. The outbox shows each one-time
 * secret once (the database forgets it then): read a code with {@link latestCode}, right when it is needed.
 */
export async function outbox(to: string, limit = 50): Promise<OutboxMessage[]> {
  const url = barong(`/dev/outbox?to=${encodeURIComponent(to)}&limit=${limit}`);
  return (await (await fetch(url)).json()) as OutboxMessage[];
}

/** The newest one-time secret (a code, a pin, a reset link's token) sent to an email or phone. */
export async function latestCode(to: string): Promise<string> {
  const [message] = await outbox(to, 1);
  if (!message?.secret) throw new Error(`no code in the outbox for ${to}`);
  return message.secret;
}

/** Who registers in each country: names, calling code and a mobile number (the app takes mobiles only). */
const PEOPLE = {
  // 090, then a digit from 1 to 9 and seven more.
  JP: {
    first_name: 'Mina',
    last_name: 'Kimura',
    country_code: '81',
    mobile: () => `909${unique().slice(-7)}`,
  },
  // 010, then eight digits.
  KR: { first_name: 'Jun', last_name: 'Park', country_code: '82', mobile: () => `102${unique().slice(-7)}` },
} as const;

const postJson = (path: string, body: unknown) =>
  fetch(barong(path), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

/**
 * Registers an account through the API and leaves it pending (its codes sent, not verified); returns its email
 * and full phone number as the server stored them.
 */
export async function pendingAccount(
  prefix = 'id',
  country: keyof typeof PEOPLE = 'JP',
): Promise<{ email: string; phone: string }> {
  const email = `${prefix}${unique()}@example.com`;
  const { mobile, ...person } = PEOPLE[country];
  const phone_number = mobile();
  const register = async () =>
    postJson('/identity/users', {
      ...person,
      email,
      country,
      phone_number,
      password: PASSWORD,
      captcha_response: await captchaResponse(),
    });
  let registered = await register();
  // The whole suite registers from one address: past the per-minute limit, the server's clock moves past the
  // window (Retry-After) instead of the test waiting it out, and it tries again.
  for (let tries = 0; registered.status === 429 && tries < 2; tries++) {
    const wait = Number(registered.headers.get('retry-after') ?? 60);
    await advanceServerClock((Number.isFinite(wait) ? wait : 60) * 1000);
    registered = await register();
  }
  if (registered.status !== 201)
    throw new Error(`registration failed: ${registered.status} ${await registered.text()}`);
  const { phone_number: phone } = (await registered.json()) as { phone_number: string };
  return { email, phone };
}

/** Registers and verifies an account through the API (Japan, +81); returns its email and full phone. */
export async function activeAccount(prefix = 'id'): Promise<{ email: string; phone: string }> {
  const { email, phone } = await pendingAccount(prefix);
  const verified = await postJson('/identity/users/verify_account', {
    email,
    phone_number: phone,
    email_otp: await latestCode(email),
    phone_otp: await latestCode(phone),
  });
  if (verified.status !== 200)
    throw new Error(`verification failed: ${verified.status} ${await verified.text()}`);
  return { email, phone };
}

/** POSTs (or PATCHes…) JSON from inside the page, so cookies land in (and come from) its browser context. */
export function postFromPage(page: Page, path: string, body: unknown, method = 'POST') {
  return page.evaluate(
    async ({ path, body, method }) => {
      const csrf = localStorage.getItem('csrfToken');
      const response = await fetch(path, {
        method,
        credentials: 'include',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json',
          ...(csrf ? { 'X-CSRF-Token': csrf } : {}),
        },
        body: JSON.stringify(body),
      });
      const retryAfter = Number(response.headers.get('retry-after') ?? Number.NaN);
      return {
        status: response.status,
        body: (await response.json().catch(() => null)) as unknown,
        retryAfter: Number.isFinite(retryAfter) ? retryAfter : undefined,
      };
    },
    { path, body, method },
  );
}

/** A blank page at the app's origin (answered by the browser context, not the server), for {@link apiLogin}. */
const ORIGIN_PAGE = '/e2e-origin';
const blankPage = (route: Route) =>
  route.fulfill({
    status: 200,
    contentType: 'text/html; charset=utf-8',
    body: '<!doctype html><html lang="en"><head><title>Signing in</title></head><body></body></html>',
  });

/**
 * Signs a user in through the API (password, then the emailed code) inside `page`, and keeps the CSRF token. The
 * calls are made from a blank HTML page at the app's origin (its cookies and local storage), not from the web app,
 * which the caller opens next on the screen it wants, signed in: loading the app here only to leave it booted it
 * twice per sign-in. (A static file of the app is no substitute: an SVG document has no HTML canvas for the
 * helpers that draw in the page, and an API answer's policy forbids the page any call.)
 */
export async function apiLogin(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.route(`**${ORIGIN_PAGE}`, blankPage);
  await page.goto(ORIGIN_PAGE);
  await page.unroute(`**${ORIGIN_PAGE}`, blankPage);
  const sendCode = async () =>
    postFromPage(page, '/api/v2/barong/identity/sessions/resent_otp', {
      session_type: 'email',
      email,
      password,
      captcha_response: await captchaResponse(),
    });
  let sent = await sendCode();
  // Past the per-minute limit of the context's address, the server's clock moves past the window (Retry-After)
  // instead of the test waiting it out, and it tries again.
  for (let tries = 0; sent.status === 429 && tries < 2; tries++) {
    await advanceServerClock((sent.retryAfter ?? 60) * 1000);
    sent = await sendCode();
  }
  if (sent.status !== 201) throw new Error(`login code not sent: ${sent.status}`);
  const session = await postFromPage(page, '/api/v2/barong/identity/sessions', {
    email,
    password,
    code: await latestCode(email),
    session_type: 'email',
    captcha_response: await captchaResponse(),
  });
  if (session.status !== 200)
    throw new Error(`login failed: ${session.status} ${JSON.stringify(session.body)}`);
  const csrf = (session.body as { csrf_token: string }).csrf_token;
  await page.evaluate((token) => localStorage.setItem('csrfToken', token), csrf);
}
