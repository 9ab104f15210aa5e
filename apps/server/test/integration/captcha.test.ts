import { createServer } from 'node:http';
import { type Challenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecaptcha } from '../../src/adapters/captcha/recaptcha.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { nextIp } from '../support/identity.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { CAPTCHA_TYPE: 'altcha' });
});
afterAll(() => t.close());

/** Fetches a challenge and solves it as the browser widget does; returns the form field value. */
async function solvedCaptcha(): Promise<string> {
  const challenge = (
    await t.app.inject({ method: 'GET', url: '/api/v2/barong/identity/captcha/challenge' })
  ).json() as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

const message = { email: 'cap@example.com', subject: 'Hello', name: 'Cap', message: 'Testing' };
const contact = (captcha_response?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v2/barong/identity/inquiry',
    payload: { ...message, captcha_response },
    remoteAddress: nextIp(),
  });

describe('ALTCHA captcha', () => {
  it('tells the client which captcha to show', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v2/barong/identity/configs' });
    expect(res.json()).toMatchObject({ captcha_type: 'altcha' });
  });

  it('asks for 16 leading zero bits of SHA-256 by default, ALTCHA_DIFFICULTY_BITS otherwise', async () => {
    const served = (
      await t.app.inject({ method: 'GET', url: '/api/v2/barong/identity/captcha/challenge' })
    ).json() as Challenge;
    expect(served.parameters.keyPrefix).toBe('0000');
    const easier = await createTestApp({}, { CAPTCHA_TYPE: 'altcha', ALTCHA_DIFFICULTY_BITS: '8' });
    try {
      const challenge = (
        await easier.app.inject({ method: 'GET', url: '/api/v2/barong/identity/captcha/challenge' })
      ).json() as Challenge;
      expect(challenge.parameters.keyPrefix).toBe('00');
      const solution = await solveChallenge({ challenge, deriveKey });
      const captcha_response = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
      const send = () =>
        easier.app.inject({
          method: 'POST',
          url: '/api/v2/barong/identity/inquiry',
          payload: { ...message, email: 'easier@example.com', captcha_response },
          remoteAddress: nextIp(),
        });
      expect((await send()).statusCode).toBe(201);
      expect((await send()).json()).toEqual({ errors: ['identity.captcha.verification_failed'] });
    } finally {
      await easier.close();
    }
  });

  it('accepts a solved challenge once', async () => {
    const captcha = await solvedCaptcha();
    expect((await contact(captcha)).statusCode).toBe(201);
    const replay = await contact(captcha);
    expect(replay.statusCode).toBe(422);
    expect(replay.json()).toEqual({ errors: ['identity.captcha.verification_failed'] });
  }, 30_000);

  it('refuses a missing, malformed or tampered answer and stores nothing', async () => {
    expect((await contact(undefined)).json()).toEqual({ errors: ['identity.captcha.required'] });
    expect((await contact('bm9wZQ==')).json()).toEqual({ errors: ['identity.captcha.verification_failed'] });
    const captcha = JSON.parse(Buffer.from(await solvedCaptcha(), 'base64').toString());
    captcha.solution.counter += 1;
    const tampered = Buffer.from(JSON.stringify(captcha)).toString('base64');
    expect((await contact(tampered)).json()).toEqual({ errors: ['identity.captcha.verification_failed'] });
    const stored = await t.db.pool.query(
      `select count(*)::int as n from contact_messages where email = 'cap@example.com'`,
    );
    expect(stored.rows[0].n).toBe(1);
  }, 30_000);

  it('guards registration and login too', async () => {
    const reg = await t.app.inject({
      method: 'POST',
      url: '/api/v2/barong/identity/users',
      payload: { email: 'x@example.com' },
      remoteAddress: nextIp(),
    });
    expect(reg.statusCode).toBe(422);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v2/barong/identity/sessions',
      payload: { email: 'x@example.com', password: 'Whatever#1' },
      remoteAddress: nextIp(),
    });
    expect(login.json()).toEqual({ errors: ['identity.captcha.required'] });
  });
});

describe('reCAPTCHA adapter', () => {
  it('asks the siteverify API and follows its answer', async () => {
    const fake = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        const params = new URLSearchParams(body);
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            success: params.get('secret') === 'server-secret' && params.get('response') === 'good-token',
          }),
        );
      });
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    const address = fake.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const captcha = createRecaptcha('server-secret', `http://127.0.0.1:${port}/siteverify`);
    await expect(captcha.verify('good-token', '127.0.0.1')).resolves.toBeUndefined();
    await expect(captcha.verify('bad-token', '127.0.0.1')).rejects.toMatchObject({
      codes: ['identity.captcha.verification_failed'],
    });
    await expect(captcha.verify(undefined, '127.0.0.1')).rejects.toMatchObject({
      codes: ['identity.captcha.required'],
    });
    fake.close();
  });
});
