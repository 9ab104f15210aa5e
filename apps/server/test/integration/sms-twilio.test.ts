import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type StandaloneSimulator, startStandalone } from '@exchange/provider-sims/standalone';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from '../../src/adapters/mail/outbox.ts';
import { SECRET, withSecret } from '../../src/adapters/mail/port.ts';
import type { SmsSimulatorCredentials } from '../../src/adapters/simulators.ts';
import type { SmsMessage } from '../../src/adapters/sms/port.ts';
import { simulatorInbox } from '../../src/adapters/sms/simulator-inbox.ts';
import {
  createTwilioSms,
  SmsRejected,
  SmsUnavailable,
  type TwilioOptions,
} from '../../src/adapters/sms/twilio.ts';
import { loadServerKeys } from '../../src/modules/identity/crypto.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

/**
 * The Twilio adapter against the SMS simulator run as its own HTTP server (`npm run sim -- sms`): it sends as
 * Twilio's API is used, the simulator refuses what Twilio refuses (with Twilio's codes), and the phone inbox gives
 * each delivered text once.
 */
let db: TestDatabase;
let sim: StandaloneSimulator;
let credentials: SmsSimulatorCredentials;
/** A stand-in in front of the simulator that answers the next `failures` requests with `status` itself. */
let standIn: Server;
let standInUrl: string;
const failing = { left: 0, status: 503, requests: 0 };

beforeAll(async () => {
  db = await createTestDatabase();
  sim = await startStandalone('sms', { db: db.pool });
  credentials = sim.credentials as SmsSimulatorCredentials;
  standIn = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      failing.requests += 1;
      if (failing.left > 0) {
        failing.left -= 1;
        const code = failing.status === 429 ? 20429 : 20500;
        response
          .writeHead(failing.status, { 'content-type': 'application/json', 'retry-after': '0' })
          .end(JSON.stringify({ code, message: 'stand-in failure', status: failing.status }));
        return;
      }
      const forwarded = await fetch(`${sim.url}${request.url}`, {
        method: request.method,
        headers: {
          authorization: request.headers.authorization ?? '',
          'content-type': request.headers['content-type'] ?? '',
        },
        body: request.method === 'POST' ? Buffer.concat(chunks) : undefined,
      });
      response
        .writeHead(forwarded.status, { 'content-type': 'application/json' })
        .end(Buffer.from(await forwarded.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
  standInUrl = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await sim?.close();
  await new Promise((resolve) => standIn?.close(resolve));
  await db?.drop();
});

/** The adapter on the simulator's account, recording what it sent. */
function adapter(overrides: Partial<TwilioOptions> = {}) {
  const recorded: { message: SmsMessage; sid: string }[] = [];
  const sms = createTwilioSms({
    baseUrl: sim.url,
    accountSid: credentials.accountSid,
    authToken: credentials.authToken,
    sender: { from: credentials.from },
    backoffMs: 10,
    record: async (message, sent) => {
      recorded.push({ message, sid: sent.sid });
    },
    ...overrides,
  });
  return { sms, recorded };
}

const code = (to: string, secret: string): SmsMessage => ({
  to,
  template: 'code.login',
  text: withSecret`Exchange code to finish logging in: ${SECRET}. Valid 10 minutes.`,
  secret,
});

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('the Twilio adapter against the SMS simulator', () => {
  it('sends a code: Twilio answers 201 with the message queued; the phone shows the text once', async () => {
    const { sms, recorded } = adapter();
    await sms.send(code('819011112222', '482913'));
    expect(recorded).toHaveLength(1);
    const [sent] = recorded;
    expect(sent?.sid).toMatch(/^SM[0-9a-f]{32}$/);
    // What the product keeps is the template: the slot, never the code.
    expect(sent?.message.text).not.toContain('482913');

    const stored = await db.pool.query('select body_sealed, to_number from smssim_messages where sid = $1', [
      sent?.sid,
    ]);
    expect(stored.rows[0].to_number).toBe('+819011112222');
    // Sealed at rest: the code is not in the stored bytes.
    expect((stored.rows[0].body_sealed as Buffer).toString('latin1')).not.toContain('482913');

    const fetched = await fetch(
      `${sim.url}/2010-04-01/Accounts/${credentials.accountSid}/Messages/${sent?.sid}.json`,
      {
        headers: { authorization: basic(credentials.accountSid, credentials.authToken) },
      },
    );
    const resource = (await fetched.json()) as {
      status: string;
      to: string;
      body: string;
      direction: string;
    };
    expect(fetched.status).toBe(200);
    expect(resource).toMatchObject({ to: '+819011112222', direction: 'outbound-api', body: '' });
    expect(['queued', 'sent', 'delivered']).toContain(resource.status);

    const inbox = simulatorInbox({
      baseUrl: () => sim.url,
      accountSid: credentials.accountSid,
      authToken: credentials.authToken,
    });
    const first = await inbox.take([sent?.sid as string]);
    expect(first.get(sent?.sid as string)).toBe(
      'Exchange code to finish logging in: 482913. Valid 10 minutes.',
    );
    expect((await inbox.take([sent?.sid as string])).size).toBe(0);
    const cleared = await db.pool.query('select body_sealed from smssim_messages where sid = $1', [
      sent?.sid,
    ]);
    expect(cleared.rows[0].body_sealed).toBeNull();
  });

  it('moves a message from queued to sent to delivered', async () => {
    const { sms, recorded } = adapter();
    await sms.send(code('819011113333', '111222'));
    const url = `${sim.url}/2010-04-01/Accounts/${credentials.accountSid}/Messages/${recorded[0]?.sid}.json`;
    const status = async () =>
      (
        (await (
          await fetch(url, {
            headers: { authorization: basic(credentials.accountSid, credentials.authToken) },
          })
        ).json()) as { status: string }
      ).status;
    // The simulator reckons the status from the message's age (one second to sent, two to delivered).
    const age = (seconds: number) =>
      db.pool.query(
        'update smssim_messages set created_at = now() - make_interval(secs => $2) where sid = $1',
        [recorded[0]?.sid, seconds],
      );
    await age(0);
    expect(await status()).toBe('queued');
    await age(1.5);
    expect(await status()).toBe('sent');
    await age(3);
    expect(await status()).toBe('delivered');
  });

  it("refuses an invalid or magic number with Twilio's code, which the adapter reports without retrying", async () => {
    const { sms, recorded } = adapter();
    const refusal = (to: string) =>
      sms.send(code(to, '1')).then(
        () => null,
        (err: unknown) => err,
      );
    const invalid = await refusal('15005550001');
    expect(invalid).toBeInstanceOf(SmsRejected);
    expect(invalid).toMatchObject({ code: 21211, status: 400, recipient: true });
    expect(await refusal('15005550004')).toMatchObject({ code: 21610 });
    expect(await refusal('12')).toMatchObject({ code: 21211 });
    expect(recorded).toEqual([]);
  });

  it('answers a wrong auth token 401 (code 20003)', async () => {
    const { sms } = adapter({ authToken: 'f'.repeat(32) });
    const err = await sms.send(code('819011114444', '1')).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SmsRejected);
    expect(err).toMatchObject({ code: 20003, status: 401, recipient: false });
  });

  it('refuses the phone inbox to a raw client without the credentials or with a wrong token, and shows nothing', async () => {
    const { sms } = adapter();
    await sms.send(code('819011115555', '271828'));
    const read = (authorization?: string) =>
      fetch(`${sim.url}/inbox?to=%2B819011115555`, authorization ? { headers: { authorization } } : {});
    for (const refused of [await read(), await read(basic(credentials.accountSid, 'f'.repeat(32)))]) {
      expect(refused.status).toBe(401);
      expect(JSON.stringify(await refused.json())).not.toContain('271828');
    }
    // Nothing was taken by the refused reads: the right credentials still get the text, once.
    const shown = (await (await read(basic(credentials.accountSid, credentials.authToken))).json()) as {
      body: string;
    }[];
    expect(shown.map((m) => m.body)).toEqual([
      'Exchange code to finish logging in: 271828. Valid 10 minutes.',
    ]);
  });

  it('retries a 5xx and a 429 and then sends; reports them when they last', async () => {
    const { sms, recorded } = adapter({ baseUrl: standInUrl, attempts: 3 });
    Object.assign(failing, { left: 2, status: 503, requests: 0 });
    await sms.send(code('819011115555', '333444'));
    expect([failing.requests, recorded.length]).toEqual([3, 1]);

    Object.assign(failing, { left: 5, status: 429, requests: 0 });
    const err = await sms.send(code('819011115555', '1')).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SmsUnavailable);
    expect(err).toMatchObject({ status: 429, code: 20429 });
    expect(failing.requests).toBe(3);
    failing.left = 0;
  });

  it("answers over the account's request budget 429 with code 20429", async () => {
    // A simulator of its own, allowed 3 requests a second (the other tests' one allows 100).
    const strict = await startStandalone('sms', { db: db.pool, requestsPerSecond: 3 });
    try {
      const { sms } = adapter({ baseUrl: strict.url, attempts: 1 });
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          sms.send(code(`81901111600${i}`, '1')).then(
            () => null,
            (e: unknown) => e,
          ),
        ),
      );
      const limited = results.filter((r) => r instanceof SmsUnavailable);
      // Eight at once: at most three in any one second pass.
      expect(limited.length).toBeGreaterThanOrEqual(2);
      expect(limited[0]).toMatchObject({ status: 429, code: 20429 });
    } finally {
      await strict.close();
    }
  });

  it('the dev outbox gives back the code of a text the simulator delivered, once', async () => {
    const { sms, recorded } = adapter();
    await sms.send(code('819011117777', '905317'));
    const sid = recorded[0]?.sid as string;
    await db.pool.query(
      `insert into mail_outbox (channel, recipient, template, subject, body, provider_ref)
       values ('sms', '819011117777', 'code.login', '', $1, $2)`,
      [recorded[0]?.message.text, sid],
    );
    const inbox = simulatorInbox({
      baseUrl: () => sim.url,
      accountSid: credentials.accountSid,
      authToken: credentials.authToken,
    });
    const keys = await loadServerKeys(db.pool, undefined);
    const read = (delivered = true) =>
      readOutbox(
        db.pool,
        keys,
        { to: '819011117777', limit: 1 },
        delivered ? (refs) => inbox.take(refs) : undefined,
      );
    const [first] = await read();
    expect(first).toMatchObject({
      channel: 'sms',
      secret: '905317',
      body: 'Exchange code to finish logging in: 905317. Valid 10 minutes.',
    });
    const [second] = await read();
    expect(second).toMatchObject({
      secret: null,
      body: 'Exchange code to finish logging in: [redacted]. Valid 10 minutes.',
    });
  });
});
