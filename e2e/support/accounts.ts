import { inject } from 'vitest';
import { captchaResponse } from './captcha.ts';

/** The password every account made by the e2e tests uses. */
export const PASSWORD = 'Secret-pass1';

/** A URL of the identity service of the started app. */
export const barong = (path: string) => `${inject('baseUrl')}/api/v2/barong${path}`;

/** A value unique to this run, for emails and phone numbers. */
export const unique = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;

/** Messages the app sent to an email or phone, newest first, from the dev outbox. */
export async function outbox(to: string): Promise<{ subject: string | null; body: string }[]> {
  return (await (await fetch(barong(`/dev/outbox?to=${encodeURIComponent(to)}`))).json()) as {
    subject: string | null;
    body: string;
  }[];
}

/** The newest one-time code (5 or 6 digits) sent to an email or phone. */
export async function latestCode(to: string): Promise<string> {
  const [message] = await outbox(to);
  const code = /\b(\d{5,6})\b/.exec(`${message?.subject ?? ''} ${message?.body ?? ''}`)?.[1];
  if (!code) throw new Error(`no code in the outbox for ${to}`);
  return code;
}

/** Registers and verifies an account through the API (Japan, +81); returns its email and full phone. */
export async function activeAccount(prefix = 'id'): Promise<{ email: string; phone: string }> {
  const email = `${prefix}${unique()}@example.com`;
  const post = (path: string, body: unknown) =>
    fetch(barong(path), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  const registered = await post('/identity/users', {
    first_name: 'Mina',
    last_name: 'Kimura',
    email,
    country: 'JP',
    country_code: '81',
    phone_number: `9${unique().slice(-9)}`,
    password: PASSWORD,
    captcha_response: await captchaResponse(),
  });
  if (registered.status !== 201)
    throw new Error(`registration failed: ${registered.status} ${await registered.text()}`);
  const { phone_number: phone } = (await registered.json()) as { phone_number: string };
  const verified = await post('/identity/users/verify_account', {
    email,
    phone_number: phone,
    email_otp: await latestCode(email),
    phone_otp: await latestCode(phone),
  });
  if (verified.status !== 200)
    throw new Error(`verification failed: ${verified.status} ${await verified.text()}`);
  return { email, phone };
}
