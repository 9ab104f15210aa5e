import type { StandaloneSimulator } from '@exchange/provider-sims/standalone';
import { startStandalone } from '@exchange/provider-sims/standalone';
import nodemailer from 'nodemailer';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET, withSecret } from '../../src/adapters/mail/port.ts';
import { simulatorMailbox } from '../../src/adapters/mail/simulator-mailbox.ts';
import { createQueuedSmtpMail, MailSender } from '../../src/adapters/mail/smtp.ts';
import { mailFor } from '../../src/compose-mail.ts';
import type { Role } from '../../src/config.ts';
import { loadServerKeys, type ServerKeys } from '../../src/modules/identity/crypto.ts';
import { createTestApp, type TestApp, testConfig } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { activeUser, outbox } from '../support/identity.ts';

/**
 * Issue 34: mail goes out over SMTP to the mail simulator (a mail server as a real one answers: AUTH, size limit, a
 * bouncing and a deferring domain), which keeps each message sealed for the developer's mailbox; the exchange
 * keeps only its record and the Message-ID, as with a real server.
 */

let db: TestDatabase;
let keys: ServerKeys;
let sim: StandaloneSimulator;
const credentials = () => sim.credentials as { user: string; password: string };

beforeAll(async () => {
  db = await createTestDatabase();
  keys = await loadServerKeys(db.pool, undefined);
  sim = await startStandalone('mail', { db: db.pool });
});
afterAll(async () => {
  await sim?.close();
  await db.drop();
});

/** Queues a message and has a sender to `smtpUrl` deliver what is due. */
async function sendThrough(smtpUrl: string, to: string, secret = '482913') {
  await createQueuedSmtpMail(db.pool, keys).send({
    to,
    template: 'code.login',
    subject: withSecret`Ihr Bestätigungscode: ${SECRET}`,
    text: withSecret`Grüße! Your code is ${SECRET}. It expires in 10 minutes – never share it.`,
    secret,
  });
  const sender = new MailSender({ db: db.pool, keys, smtpUrl, from: 'Exchange <no-reply@example.com>' });
  await sender.flush();
  await sender.stop();
  return (
    await db.pool.query(
      'select queued, attempts, sent_at, dead_at, secret_enc, error, provider_ref from mail_outbox where recipient = $1',
      [to],
    )
  ).rows[0];
}

const mailbox = (query: string, authorization?: string) =>
  fetch(`${sim.url}/mailbox?${query}`, authorization ? { headers: { authorization } } : {});
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('the mail simulator, standalone', () => {
  it('takes a message over SMTP, and its mailbox shows the subject and text once (encodings decoded)', async () => {
    const row = await sendThrough(sim.smtpUrl as string, 'mailbox@example.com');
    expect(row).toMatchObject({
      queued: false,
      attempts: 1,
      sent_at: expect.any(Date),
      secret_enc: null,
      error: null,
    });
    expect(row.provider_ref).toMatch(/^<[^<>]+@[^<>]+>$/);
    const { user, password } = credentials();
    const first = await mailbox('to=Mailbox@example.com', basic(user, password));
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual([
      {
        message_id: row.provider_ref,
        from: 'no-reply@example.com',
        to: 'mailbox@example.com',
        subject: 'Ihr Bestätigungscode: 482913',
        text: 'Grüße! Your code is 482913. It expires in 10 minutes – never share it.\n',
        received_at: expect.any(String),
      },
    ]);
    const again = (await (await mailbox('to=mailbox@example.com', basic(user, password))).json()) as {
      subject: string | null;
      text: string | null;
    }[];
    expect(again).toMatchObject([{ subject: null, text: null }]);
  });

  it('refuses the mailbox without its credentials, with wrong ones, and a malformed query', async () => {
    const { user, password } = credentials();
    expect((await mailbox('to=a@example.com')).status).toBe(401);
    expect((await mailbox('to=a@example.com', basic(user, `${password}x`))).status).toBe(401);
    expect((await mailbox('message_id=not-an-id', basic(user, password))).status).toBe(400);
    expect((await mailbox('limit=501', basic(user, password))).status).toBe(400);
  });

  it('bounces a recipient for good (a dead letter at once) and defers another (tried again later)', async () => {
    const bounced = await sendThrough(sim.smtpUrl as string, 'nobody@bounce.example');
    expect(bounced).toMatchObject({
      queued: false,
      attempts: 1,
      dead_at: expect.any(Date),
      secret_enc: null,
    });
    expect(bounced.error).toMatch(/550/);
    const deferred = await sendThrough(sim.smtpUrl as string, 'busy@defer.example');
    expect(deferred).toMatchObject({
      queued: true,
      attempts: 1,
      dead_at: null,
      secret_enc: expect.any(String),
    });
    expect(deferred.error).toMatch(/451/);
  });

  it('refuses a sender that does not log in, or logs in wrongly: kept queued for when it is configured right', async () => {
    const { user } = credentials();
    const port = new URL(sim.smtpUrl as string).port;
    const anonymous = await sendThrough(`smtp://127.0.0.1:${port}`, 'anon@example.com');
    expect(anonymous).toMatchObject({ queued: true, dead_at: null });
    expect(anonymous.error).toMatch(/530|[Aa]uthentication/);
    const wrong = await sendThrough(`smtp://${user}:wrong@127.0.0.1:${port}`, 'wrong@example.com');
    expect(wrong).toMatchObject({ queued: true, dead_at: null });
    expect(wrong.error).toMatch(/535/);
    const kept = await db.pool.query(
      `select count(*)::int as n from mailsim_messages where rcpt_to in ('anon@example.com', 'wrong@example.com')`,
    );
    expect(kept.rows[0].n).toBe(0);
  });

  it('refuses a message over its size limit (552)', async () => {
    const transport = nodemailer.createTransport({ url: sim.smtpUrl as string });
    await expect(
      transport.sendMail({
        from: 'a@example.com',
        to: 'big@example.com',
        subject: 'big',
        text: 'x'.repeat(1_100_000),
      }),
    ).rejects.toMatchObject({ responseCode: 552 });
    transport.close();
  });

  it('the exchange reads its mailbox through the adapter, by Message-ID, each text once and without the last line break', async () => {
    const row = await sendThrough(sim.smtpUrl as string, 'adapter@example.com', '777111');
    const { user, password } = credentials();
    const box = simulatorMailbox({ baseUrl: () => sim.url, user, password });
    const texts = await box.take([row.provider_ref, 'SMnot-a-mail-ref']);
    expect([...texts]).toEqual([
      [row.provider_ref, 'Grüße! Your code is 777111. It expires in 10 minutes – never share it.'],
    ]);
    expect((await box.take([row.provider_ref])).size).toBe(0);
  });
});

describe('the mail simulator in the one process (the default without SMTP_URL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('delivers registration mail over SMTP; the dev outbox reads the code from the mailbox once', async () => {
    const { email } = await activeUser(t, 'one-process@example.com');
    const kept = await t.db.pool.query(
      'select template, secret_enc, queued, sent_at, provider_ref from mail_outbox where recipient = $1',
      [email],
    );
    expect(kept.rows).toEqual([
      {
        template: 'code.register',
        secret_enc: null,
        queued: false,
        sent_at: expect.any(Date),
        provider_ref: expect.stringMatching(/^<[^<>]+>$/),
      },
    ]);
    const [again] = await outbox(t, email);
    expect(again).toMatchObject({ channel: 'email', secret: null });
    expect(again?.body).toContain('[redacted]');
  });

  it('answers its mailbox on the app only with the credentials', async () => {
    const raw = await t.app.inject({ method: 'GET', url: '/mail-sim/mailbox?to=one-process@example.com' });
    expect(raw.statusCode).toBe(401);
    const forged = await t.app.inject({
      method: 'GET',
      url: '/mail-sim/mailbox?to=one-process@example.com',
      headers: { authorization: basic('exchange', 'guess') },
    });
    expect(forged.statusCode).toBe(401);
  });
});

describe('the mail simulator in a split deployment (DEV_TOOLS)', () => {
  /** The composition's mail setup of one role, as that process builds it. */
  const setupOf = (role: Role) =>
    mailFor(
      { ...testConfig({ DEV_TOOLS: 'true' }), roles: new Set<Role>([role]) },
      db.pool,
      keys,
      keys,
      () => null,
      () => undefined,
      undefined,
      pino({ level: 'silent' }),
    );

  it("the api process has no sender; its dev outbox's flush waits until the worker's sender has delivered", async () => {
    const api = await setupOf('api');
    const worker = await setupOf('worker');
    try {
      expect(api.sender).toBeUndefined();
      expect(api.flush).toBeTypeOf('function');
      await api.mail.send({
        to: 'split@example.com',
        template: 'code.login',
        subject: withSecret`Code ${SECRET}`,
        text: withSecret`Your code is ${SECRET}.`,
        secret: '515151',
      });
      worker.sender?.start();
      await api.flush?.();
      const row = (
        await db.pool.query<{ sent_at: Date | null; provider_ref: string | null }>(
          'select sent_at, provider_ref from mail_outbox where recipient = $1',
          ['split@example.com'],
        )
      ).rows[0];
      expect(row).toEqual({ sent_at: expect.any(Date), provider_ref: expect.stringMatching(/^<[^<>]+>$/) });
    } finally {
      await api.stop();
      await worker.stop();
    }
  });
});
