import { createServer } from 'node:net';
import { type StandaloneSimulator, startStandalone } from '@exchange/provider-sims/standalone';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET, withSecret } from '../../src/adapters/mail/port.ts';
import type { SmsSimulatorCredentials } from '../../src/adapters/simulators.ts';
import { twilioSignature } from '../../src/adapters/sms/signing.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { within } from '../support/within.ts';

// SMS_PROVIDER=twilio against the SMS simulator run as its own server, with TWILIO_STATUS_CALLBACK set: the adapter
// sends that URL, the provider posts there, and the app checks each callback's signature against that URL (not the
// address the request names), as it would behind Twilio.
let db: TestDatabase;
let sim: StandaloneSimulator;
let t: TestApp;
let credentials: SmsSimulatorCredentials;
let callbackUrl: string;

/** A free port on the loopback: the app listens there, so its callback URL is known before it starts. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  db = await createTestDatabase();
  sim = await startStandalone('sms', { db: db.pool });
  credentials = sim.credentials as SmsSimulatorCredentials;
  const port = await freePort();
  callbackUrl = `http://127.0.0.1:${port}/api/v2/barong/public/sms/twilio/status`;
  t = await createTestApp(
    {},
    {
      SMS_PROVIDER: 'twilio',
      TWILIO_API_URL: sim.url,
      TWILIO_ACCOUNT_SID: credentials.accountSid,
      TWILIO_AUTH_TOKEN: credentials.authToken,
      TWILIO_FROM: credentials.from,
      TWILIO_STATUS_CALLBACK: callbackUrl,
    },
    db,
  );
  await t.app.listen({ port, host: '127.0.0.1' });
});
afterAll(async () => {
  await sim?.close();
  await t?.close();
});

describe('status callbacks with SMS_PROVIDER=twilio and TWILIO_STATUS_CALLBACK', () => {
  it('sends the configured URL, and records the status posted there', async () => {
    await t.deps.sms.send({
      to: '819011130001',
      template: 'code.login',
      text: withSecret`Exchange code to finish logging in: ${SECRET}. Valid 10 minutes.`,
      secret: '654321',
    });
    const sid = (
      await t.db.pool.query(`select provider_ref from mail_outbox where recipient = '819011130001'`)
    ).rows[0].provider_ref as string;
    const sent = await t.db.pool.query('select status_callback from smssim_messages where sid = $1', [sid]);
    expect(sent.rows[0].status_callback).toBe(callbackUrl);
    const status = async () =>
      (await t.db.pool.query('select delivery_status from mail_outbox where provider_ref = $1', [sid]))
        .rows[0].delivery_status;
    await within(15_000, async () => (await status()) === 'delivered');
  });

  it('checks the signature against the configured URL only: one for another address of the app is refused', async () => {
    const form = new URLSearchParams({ MessageSid: `SM${'e'.repeat(32)}`, MessageStatus: 'sent' });
    const post = (signedFor: string) =>
      fetch(callbackUrl, {
        method: 'POST',
        headers: { 'x-twilio-signature': twilioSignature(credentials.authToken, signedFor, form) },
        body: form,
      });
    const refused = await post(callbackUrl.replace('127.0.0.1', 'localhost'));
    expect([refused.status, await refused.json()]).toEqual([
      401,
      { errors: ['sms.webhook.invalid_signature'] },
    ]);
    const taken = await post(callbackUrl);
    expect([taken.status, await taken.json()]).toEqual([200, { status: 'unknown' }]);
  });
});
