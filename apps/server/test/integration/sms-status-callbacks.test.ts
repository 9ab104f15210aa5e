import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API } from '@exchange/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET, withSecret } from '../../src/adapters/mail/port.ts';
import type { SmsSimulatorCredentials } from '../../src/adapters/simulators.ts';
import { twilioSignature } from '../../src/adapters/sms/signing.ts';
import { SMS_STATUS_PATH } from '../../src/modules/identity/sms-status-routes.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { within } from '../support/within.ts';

// SMS_PROVIDER=simulator with the app listening: each text goes out with a StatusCallback to the app's own
// address, and the simulator posts the text's status changes there signed as Twilio signs (X-Twilio-Signature).
// The app records the status on the text's outbox record, only ever forward; anything not signed is refused.
let t: TestApp;
let base: string;
let credentials: SmsSimulatorCredentials;
let statusUrl: string;

beforeAll(async () => {
  t = await createTestApp({}, { SMS_PROVIDER: 'simulator' });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  credentials = t.deps.smsSimulator?.credentials as SmsSimulatorCredentials;
  statusUrl = `${base}${API.barong}${SMS_STATUS_PATH}`;
});
afterAll(() => t.close());

/** Sends a code through the app's SMS port; the text's message SID. */
async function send(to: string): Promise<string> {
  await t.deps.sms.send({
    to,
    template: 'code.login',
    text: withSecret`Exchange code to finish logging in: ${SECRET}. Valid 10 minutes.`,
    secret: '123456',
  });
  const row = (
    await t.db.pool.query(
      `select provider_ref from mail_outbox where recipient = $1 and channel = 'sms' order by id desc limit 1`,
      [to],
    )
  ).rows[0];
  return row.provider_ref as string;
}

const delivery = async (sid: string) =>
  (
    await t.db.pool.query(
      'select delivery_status, delivery_error_code, delivery_updated_at from mail_outbox where provider_ref = $1',
      [sid],
    )
  ).rows[0] as {
    delivery_status: string | null;
    delivery_error_code: number | null;
    delivery_updated_at: Date;
  };

/** Posts a status callback as a raw client: signed with `token` for `url` unless a signature is given. */
function post(
  params: Record<string, string>,
  options: { token?: string; url?: string; signature?: string | null } = {},
) {
  const body = new URLSearchParams(params);
  const signature =
    options.signature === undefined
      ? twilioSignature(options.token ?? credentials.authToken, options.url ?? statusUrl, body)
      : options.signature;
  return fetch(statusUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(signature === null ? {} : { 'x-twilio-signature': signature }),
    },
    body: body.toString(),
  });
}

const callback = (sid: string, status: string, extra: Record<string, string> = {}) => ({
  AccountSid: credentials.accountSid,
  ApiVersion: '2010-04-01',
  From: credentials.from,
  MessageSid: sid,
  MessageStatus: status,
  SmsSid: sid,
  SmsStatus: status,
  To: '+819011120000',
  ...extra,
});

describe('status callbacks from the SMS simulator', () => {
  it('records a delivered text: sent with a StatusCallback to the app, then posted sent and delivered', async () => {
    const sid = await send('819011120001');
    const stored = await t.db.pool.query('select status_callback from smssim_messages where sid = $1', [sid]);
    expect(stored.rows[0].status_callback).toBe(statusUrl);
    await within(10_000, async () => (await delivery(sid))?.delivery_status === 'delivered');
    expect(await delivery(sid)).toMatchObject({ delivery_status: 'delivered', delivery_error_code: null });
    const posted = () =>
      t.db.pool
        .query(
          'select status, attempts, delivered_at, last_error from smssim_callbacks where sid = $1 order by id',
          [sid],
        )
        .then((r) => r.rows);
    // The app records the status while answering the post; the simulator marks it delivered once the answer came.
    await within(10_000, async () => (await posted()).every((r) => r.delivered_at !== null));
    expect(await posted()).toEqual([
      { status: 'sent', attempts: 1, delivered_at: expect.any(Date), last_error: null },
      { status: 'delivered', attempts: 1, delivered_at: expect.any(Date), last_error: null },
    ]);
  });

  it("records an undelivered text with Twilio's error code", async () => {
    // The simulator's handset +15005550010 never receives: undelivered, error 30003.
    const sid = await send('15005550010');
    await within(10_000, async () => (await delivery(sid))?.delivery_status === 'undelivered');
    expect(await delivery(sid)).toMatchObject({ delivery_status: 'undelivered', delivery_error_code: 30003 });
  });
});

describe('the status callback route', () => {
  it('refuses a callback without a signature, with a forged one, or signed for another URL, and changes nothing', async () => {
    const sid = await send('819011120002');
    await within(10_000, async () => (await delivery(sid))?.delivery_status === 'delivered');
    const before = await delivery(sid);
    const failed = callback(sid, 'failed', { ErrorCode: '30008' });
    const refusals = [
      await post(failed, { signature: null }),
      await post(failed, { signature: '' }),
      await post(failed, { token: 'f'.repeat(32) }),
      await post(failed, { url: `${base}/elsewhere` }),
      // A signature of other parameters: the status was changed on the way.
      await post(failed, {
        signature: twilioSignature(
          credentials.authToken,
          statusUrl,
          new URLSearchParams(callback(sid, 'delivered')),
        ),
      }),
    ];
    for (const refused of refusals) {
      expect(refused.status).toBe(401);
      expect(await refused.json()).toEqual({ errors: ['sms.webhook.invalid_signature'] });
    }
    expect(await delivery(sid)).toEqual(before);
  });

  it('keeps the furthest status: a replayed or late callback does not move it back', async () => {
    const sid = await send('819011120003');
    await within(10_000, async () => (await delivery(sid))?.delivery_status === 'delivered');
    const before = await delivery(sid);
    for (const status of ['delivered', 'sent', 'queued', 'undelivered', 'failed']) {
      const answer = await post(callback(sid, status, status === 'failed' ? { ErrorCode: '30008' } : {}));
      expect([answer.status, await answer.json()]).toEqual([200, { status: 'stale' }]);
    }
    expect(await delivery(sid)).toEqual(before);
    // A read receipt is further along.
    expect(await (await post(callback(sid, 'read'))).json()).toEqual({ status: 'recorded' });
    expect((await delivery(sid)).delivery_status).toBe('read');
  });

  it('takes a callback out of order: delivered first, then the late sent changes nothing', async () => {
    // A text whose callbacks are not posted by the simulator (the app's record only): the test posts them.
    const sid = `SM${'a'.repeat(32)}`;
    await t.db.pool.query(
      `insert into mail_outbox (channel, recipient, template, subject, body, provider_ref)
       values ('sms', '819011120004', 'code.login', '', 'x', $1)`,
      [sid],
    );
    expect(await (await post(callback(sid, 'delivered'))).json()).toEqual({ status: 'recorded' });
    expect(await (await post(callback(sid, 'sent'))).json()).toEqual({ status: 'stale' });
    expect(await delivery(sid)).toMatchObject({ delivery_status: 'delivered' });
    // Unknown texts and statuses no outgoing text has are answered 200 and recorded nowhere.
    expect(await (await post(callback(`SM${'b'.repeat(32)}`, 'sent'))).json()).toEqual({ status: 'unknown' });
    expect(await (await post(callback(sid, 'receiving'))).json()).toEqual({ status: 'ignored' });
    const invalid = await post({ MessageStatus: 'sent' });
    expect([invalid.status, await invalid.json()]).toEqual([
      400,
      { errors: ['sms.webhook.invalid_payload'] },
    ]);
  });
});

describe('the status callback body', () => {
  it('is refused over 16 KiB (413), and without a signature before it is read (401)', async () => {
    const big = `MessageSid=SM${'c'.repeat(32)}&MessageStatus=sent&Pad=${'a'.repeat(20 * 1024)}`;
    const send = (headers: Record<string, string>) =>
      fetch(statusUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: big,
      });
    const tooLarge = await send({ 'x-twilio-signature': 'x' });
    expect([tooLarge.status, await tooLarge.json()]).toEqual([413, { errors: ['server.payload_too_large'] }]);
    const unsigned = await send({});
    expect([unsigned.status, await unsigned.json()]).toEqual([
      401,
      { errors: ['sms.webhook.invalid_signature'] },
    ]);
  });
});

describe('retries', () => {
  let refusing: Server;
  let refusingUrl: string;
  let hits = 0;
  beforeAll(async () => {
    refusing = createServer((request, response) => {
      hits += 1;
      request.resume();
      response.writeHead(503).end();
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    refusingUrl = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}/status`;
  });
  afterAll(() => new Promise((resolve) => refusing.close(resolve)));

  it('retries a callback that is not answered 2xx with back-off, a bounded number of times', async () => {
    const sim = t.deps.smsSimulator;
    const sent = await fetch(`${base}/sms-sim/2010-04-01/Accounts/${credentials.accountSid}/Messages.json`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${credentials.accountSid}:${credentials.authToken}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        To: '+819011120005',
        From: credentials.from,
        Body: 'hello',
        StatusCallback: refusingUrl,
      }).toString(),
    });
    const { sid } = (await sent.json()) as { sid: string };
    const rows = () =>
      t.db.pool
        .query(
          `select status, attempts, delivered_at, last_error, next_attempt_at > now() as waiting
             from smssim_callbacks where sid = $1 order by id`,
          [sid],
        )
        .then((r) => r.rows);
    // The attempt is counted when the callback is claimed and its error recorded once the answer came: both.
    await within(10_000, async () => (await rows()).every((r) => r.attempts === 1 && r.last_error !== null));
    expect(await rows()).toEqual([
      { status: 'sent', attempts: 1, delivered_at: null, last_error: 'HTTP 503', waiting: true },
      { status: 'delivered', attempts: 1, delivered_at: null, last_error: 'HTTP 503', waiting: true },
    ]);
    // Four failures later (the back-off moved forward), the fifth is the last.
    await t.db.pool.query(
      'update smssim_callbacks set attempts = 4, next_attempt_at = now() where sid = $1',
      [sid],
    );
    const before = hits;
    sim?.delivery.kick();
    await within(10_000, async () => (await rows()).every((r) => r.attempts === 5));
    await sim?.delivery.idle();
    await new Promise((r) => setTimeout(r, 300));
    sim?.delivery.kick();
    await sim?.delivery.idle();
    expect(hits - before).toBe(2);
    expect((await rows()).map((r) => [r.attempts, r.delivered_at])).toEqual([
      [5, null],
      [5, null],
    ]);
  });
});
