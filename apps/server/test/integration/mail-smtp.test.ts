import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET, withSecret } from '../../src/adapters/mail/port.ts';
import { createSmtpMail } from '../../src/adapters/mail/smtp.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { freePort } from '../support/ports.ts';

let db: TestDatabase;
let sink: SMTPServer;
let port: number;
const received: { from: string; to: string[]; data: string }[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
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

describe('SMTP mail adapter', () => {
  it('delivers over SMTP and records the message as sent', async () => {
    const mail = createSmtpMail(`smtp://127.0.0.1:${port}`, 'Exchange <no-reply@example.com>', db.pool);
    await mail.send({
      to: 'support@example.com',
      template: 'contact',
      subject: 'Hello',
      text: 'Body text',
      replyTo: 'a@example.com',
    });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ from: 'no-reply@example.com', to: ['support@example.com'] });
    expect(received[0]?.data).toContain('Subject: Hello');
    expect(received[0]?.data).toContain('Reply-To: a@example.com');
    const row = (await db.pool.query('select * from mail_outbox')).rows[0];
    expect(row.recipient).toBe('support@example.com');
    expect(row.template).toBe('contact');
    expect(row.sent_at).toBeInstanceOf(Date);
  });

  it('delivers the secret in the mail and keeps only a record of it: who, which template, when', async () => {
    const mail = createSmtpMail(`smtp://127.0.0.1:${port}`, 'Exchange <no-reply@example.com>', db.pool);
    await mail.send({
      to: 'user@example.com',
      template: 'code.login',
      subject: withSecret`Your verification code: ${SECRET}`,
      text: withSecret`Your code is ${SECRET}. It expires in 10 minutes.`,
      secret: '482913',
    });
    expect(received.at(-1)?.data).toContain('Subject: Your verification code: 482913');
    expect(received.at(-1)?.data).toContain('Your code is 482913.');
    const rows = await db.pool.query(
      `select template, subject, body, secret_enc, sent_at from mail_outbox where recipient = 'user@example.com'`,
    );
    expect(rows.rows).toEqual([
      {
        template: 'code.login',
        subject: 'Your verification code: {{secret}}',
        body: 'Your code is {{secret}}. It expires in 10 minutes.',
        secret_enc: null,
        sent_at: expect.any(Date),
      },
    ]);
    expect(JSON.stringify(rows.rows)).not.toContain('482913');
  });

  it('fails loudly and records nothing when the SMTP server is unreachable', async () => {
    const before = (await db.pool.query('select count(*)::int as n from mail_outbox')).rows[0].n;
    const mail = createSmtpMail(`smtp://127.0.0.1:${await freePort()}`, 'x@example.com', db.pool);
    await expect(
      mail.send({ to: 'b@example.com', template: 'contact', subject: 's', text: 't' }),
    ).rejects.toThrow();
    expect((await db.pool.query('select count(*)::int as n from mail_outbox')).rows[0].n).toBe(before);
  });
});
