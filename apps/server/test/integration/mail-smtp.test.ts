import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET, withSecret } from '../../src/adapters/mail/port.ts';
import { createQueuedSmtpMail, MAIL_MAX_ATTEMPTS, MailSender } from '../../src/adapters/mail/smtp.ts';
import { loadServerKeys, type ServerKeys } from '../../src/modules/identity/crypto.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { freePort } from '../support/ports.ts';

let db: TestDatabase;
let keys: ServerKeys;
let sink: SMTPServer;
let port: number;
const received: { from: string; to: string[]; data: string }[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  keys = await loadServerKeys(db.pool, undefined);
  port = await freePort();
  sink = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let data = '';
      stream.on('data', (chunk) => {
        data += chunk.toString();
      });
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          data,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => sink.listen(port, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise<void>((resolve) => sink.close(() => resolve()));
  await db.drop();
});

const FROM = 'Exchange <no-reply@example.com>';

/** A sender to `url` that has sent what is due now. */
async function sendDue(url: string): Promise<void> {
  const sender = new MailSender({ db: db.pool, keys, smtpUrl: url, from: FROM });
  sender.kick();
  await sender.idle();
  await sender.stop();
}

const queuedRow = async (to: string) =>
  (
    await db.pool.query(
      `select queued, attempts, sent_at, dead_at, secret_enc, error, subject, body from mail_outbox where recipient = $1`,
      [to],
    )
  ).rows[0];

describe('SMTP mail, off the request path', () => {
  it('queues the message (its secret sealed), and the sender delivers it and keeps only a record', async () => {
    const mail = createQueuedSmtpMail(db.pool, keys);
    const before = received.length;
    await mail.send({
      to: 'user@example.com',
      template: 'code.login',
      subject: withSecret`Your verification code: ${SECRET}`,
      text: withSecret`Your code is ${SECRET}. It expires in 10 minutes.`,
      secret: '482913',
      replyTo: 'a@example.com',
    });
    // Queued, not sent: nothing reached the mail server, and the database holds no readable code.
    expect(received).toHaveLength(before);
    const queued = await queuedRow('user@example.com');
    expect(queued).toMatchObject({ queued: true, sent_at: null, secret_enc: expect.any(String) });
    expect(JSON.stringify(queued)).not.toContain('482913');

    await sendDue(`smtp://127.0.0.1:${port}`);
    const delivered = received.at(-1);
    expect(delivered).toMatchObject({ from: 'no-reply@example.com', to: ['user@example.com'] });
    expect(delivered?.data).toContain('Subject: Your verification code: 482913');
    expect(delivered?.data).toContain('Your code is 482913.');
    expect(delivered?.data).toContain('Reply-To: a@example.com');
    expect(await queuedRow('user@example.com')).toEqual({
      queued: false,
      attempts: 1,
      sent_at: expect.any(Date),
      dead_at: null,
      secret_enc: null,
      error: null,
      subject: 'Your verification code: {{secret}}',
      body: 'Your code is {{secret}}. It expires in 10 minutes.',
    });
  });

  it('queues at once while the mail server is down; the sender retries later, then delivers', async () => {
    const mail = createQueuedSmtpMail(db.pool, keys);
    // Queuing never talks to the mail server: the send succeeds while it is down.
    await mail.send({ to: 'later@example.com', template: 'contact', subject: 'Hello', text: 'Body' });

    await sendDue(`smtp://127.0.0.1:${await freePort()}`);
    const failed = await queuedRow('later@example.com');
    expect(failed).toMatchObject({ queued: true, attempts: 1, sent_at: null, dead_at: null });
    expect(failed.error).toMatch(/ECONNREFUSED/);
    // Its next attempt is not due yet: a sender to a working server leaves it until then.
    await sendDue(`smtp://127.0.0.1:${port}`);
    expect((await queuedRow('later@example.com')).queued).toBe(true);

    await db.pool.query(
      `update mail_outbox set next_attempt_at = now() where recipient = 'later@example.com'`,
    );
    await sendDue(`smtp://127.0.0.1:${port}`);
    expect(await queuedRow('later@example.com')).toMatchObject({ queued: false, attempts: 2, error: null });
    expect(received.at(-1)?.to).toEqual(['later@example.com']);
  });

  it(`gives up after ${MAIL_MAX_ATTEMPTS} attempts: a dead letter, its error kept and its secret dropped`, async () => {
    const mail = createQueuedSmtpMail(db.pool, keys);
    await mail.send({
      to: 'dead@example.com',
      template: 'code.login',
      subject: 'Code',
      text: withSecret`Your code is ${SECRET}.`,
      secret: '111222',
    });
    await db.pool.query(`update mail_outbox set attempts = $1 where recipient = 'dead@example.com'`, [
      MAIL_MAX_ATTEMPTS - 1,
    ]);
    await sendDue(`smtp://127.0.0.1:${await freePort()}`);
    expect(await queuedRow('dead@example.com')).toMatchObject({
      queued: false,
      attempts: MAIL_MAX_ATTEMPTS,
      sent_at: null,
      dead_at: expect.any(Date),
      secret_enc: null,
      error: expect.stringMatching(/ECONNREFUSED/),
    });
  });
});
