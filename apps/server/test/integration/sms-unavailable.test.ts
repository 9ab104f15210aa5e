import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboxSms, type SmsPort } from '../../src/adapters/sms/port.ts';
import { createTwilioSms } from '../../src/adapters/sms/twilio.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { activeUser, lastCode, nextIp, registration } from '../support/identity.ts';

// Phone codes go through the real Twilio adapter to a provider that fails (answers 503, or is not there at all), or
// else are kept in the outbox. A failing provider is answered 503 `resource.phone.sms_unavailable` (not a 500),
// the code that was not sent is withdrawn, and asking again once the provider is back is not held back a minute.
let t: TestApp;
let provider: Server;
let providerUrl: string;
let closedUrl: string;
const state: { mode: 'ok' | 'failing' | 'down'; requests: number } = { mode: 'ok', requests: 0 };

const twilio = (baseUrl: string) =>
  createTwilioSms({
    baseUrl,
    accountSid: `AC${'0'.repeat(32)}`,
    authToken: 'a'.repeat(32),
    sender: { from: '+15005550006' },
    attempts: 2,
    backoffMs: 10,
    timeoutMs: 2000,
  });

beforeAll(async () => {
  provider = createServer((request, response) => {
    state.requests += 1;
    request.resume();
    response
      .writeHead(503, { 'content-type': 'application/json' })
      .end(JSON.stringify({ code: 20500, message: 'Internal Server Error', status: 503 }));
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
  // A port nothing listens on: the address of a server that was closed.
  const gone = createServer();
  await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
  closedUrl = `http://127.0.0.1:${(gone.address() as AddressInfo).port}`;
  await new Promise((resolve) => gone.close(resolve));

  let kept: SmsPort | undefined;
  const failing = twilio(providerUrl);
  const down = twilio(closedUrl);
  const sms: SmsPort = {
    send: (message) =>
      state.mode === 'failing'
        ? failing.send(message)
        : state.mode === 'down'
          ? down.send(message)
          : (kept as SmsPort).send(message),
  };
  t = await createTestApp({ sms });
  kept = createOutboxSms(t.db.pool, t.deps.keys);
});
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => provider?.close(resolve));
});

const post = (url: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/api/v2/barong${url}`, payload, remoteAddress: nextIp() });

const smsCodes = (destination: string, purpose: string) =>
  t.db.pool
    .query(
      `select consumed_at from one_time_codes where channel = 'sms' and destination = $1 and purpose = $2
        order by id`,
      [destination, purpose],
    )
    .then((r) => r.rows as { consumed_at: Date | null }[]);

describe('an SMS provider that fails', () => {
  it('answers a registration 503 resource.phone.sms_unavailable; the phone code is sent once it is back', async () => {
    const body = registration('sms-down@example.com');
    const phone = `91${body.phone_number.slice(1)}`;
    Object.assign(state, { mode: 'failing', requests: 0 });
    const refused = await post('/identity/users', body);
    expect([refused.statusCode, refused.json()]).toEqual([
      503,
      { errors: ['resource.phone.sms_unavailable'] },
    ]);
    expect(refused.headers['retry-after']).toBeDefined();
    // Tried twice (the adapter's attempts), and the code it could not send is withdrawn.
    expect(state.requests).toBe(2);
    expect(await smsCodes(phone, 'register')).toEqual([{ consumed_at: expect.any(Date) }]);

    // Back: the phone code is sent again at once (no 429 for a minute), and the account is verified with it.
    state.mode = 'ok';
    const resent = await post('/identity/users/send_otp/phone', { email: body.email });
    expect(resent.statusCode).toBe(201);
    const verified = await post('/identity/users/verify_account', {
      email: body.email,
      phone_number: phone,
      email_otp: await lastCode(t, body.email),
      phone_otp: await lastCode(t, phone),
    });
    expect(verified.statusCode).toBe(200);
  });

  it('answers an SMS login 503 resource.phone.sms_unavailable when the provider is not there; then sends it', async () => {
    state.mode = 'ok';
    const { phone, password } = await activeUser(t, 'sms-login-down@example.com');
    state.mode = 'down';
    const login = { session_type: 'phone', phone_number: phone, password };
    const refused = await post('/identity/sessions/resent_otp', login);
    expect([refused.statusCode, refused.json()]).toEqual([
      503,
      { errors: ['resource.phone.sms_unavailable'] },
    ]);
    expect(await smsCodes(phone, 'login')).toEqual([{ consumed_at: expect.any(Date) }]);
    state.mode = 'ok';
    const sent = await post('/identity/sessions/resent_otp', login);
    expect(sent.statusCode).toBe(201);
    expect(await lastCode(t, phone)).toMatch(/^\d{5,6}$/);
  });
});
