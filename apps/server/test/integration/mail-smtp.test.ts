import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    expect(row.sent_at).toBeInstanceOf(Date);
  });

  it('fails loudly and records nothing when the SMTP server is unreachable', async () => {
    const before = (await db.pool.query('select count(*)::int as n from mail_outbox')).rows[0].n;
    const mail = createSmtpMail(`smtp://127.0.0.1:${await freePort()}`, 'x@example.com', db.pool);
    await expect(mail.send({ to: 'b@example.com', subject: 's', text: 't' })).rejects.toThrow();
    expect((await db.pool.query('select count(*)::int as n from mail_outbox')).rows[0].n).toBe(before);
  });
});
