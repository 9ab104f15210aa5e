import type pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SmsMessage } from '../../src/adapters/sms/port.ts';
import { createOutboxSms } from '../../src/adapters/sms/port.ts';
import { hashPassword } from '../../src/modules/identity/passwords.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { plainUser } from '../support/core.ts';
import { createTestDatabase } from '../support/db.ts';
import { lastCode, nextIp, outbox, registration } from '../support/identity.ts';
import { freePort } from '../support/ports.ts';
import { externalAddress, member } from '../support/wallet.ts';
import { within } from '../support/within.ts';

/**
 * Issue 25, item 3: a delivered one-time secret (reset link, login code, registration codes, beneficiary pin)
 * is never kept readable. An auditor with read access to the database (every text column of every table) and
 * to the log finds none of them; the development outbox shows each once; old records are purged.
 */

/** A mailbox the production-like app delivers to over SMTP: the user's side, where secrets belong. */
const inbox: string[] = [];
let sink: SMTPServer;
/** Text messages the production-like app sent (its SMS adapter is the outbox, with no developer tools). */
const texts: SmsMessage[] = [];
const logLines: string[] = [];
const warnings: string[] = [];
let prod: TestApp;
let dev: TestApp;

beforeAll(async () => {
  const port = await freePort();
  sink = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      let data = '';
      stream.on('data', (chunk) => {
        data += chunk.toString();
      });
      stream.on('end', () => {
        inbox.push(data);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => sink.listen(port, '127.0.0.1', resolve));
  const db = await createTestDatabase();
  const sms = createOutboxSms(db.pool);
  prod = await createTestApp(
    {
      logStream: { write: (line: string) => void logLines.push(line) },
      sms: {
        send: (message) => {
          texts.push(message);
          return sms.send(message);
        },
      },
    },
    { SMTP_URL: `smtp://127.0.0.1:${port}`, DEV_TOOLS: 'false', LOG_LEVEL: 'trace' },
    db,
  );
  dev = await createTestApp({}, { MAIL_RETENTION_DAYS: '7' });
});
afterAll(async () => {
  await Promise.all([prod?.close(), dev?.close()]);
  await new Promise<void>((resolve) => sink.close(() => resolve()));
});
afterEach(() => vi.restoreAllMocks());
const captureWarnings = () =>
  vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
    warnings.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
  });

/** Every text-like column of every table: what a reader of the database can see. */
async function textColumns(db: pg.Pool): Promise<{ table: string; column: string }[]> {
  const rows = await db.query(
    `select table_name as table, column_name as column from information_schema.columns
      where table_schema = 'public' and data_type in ('text', 'character varying', 'json', 'jsonb')
      order by table_name, column_name`,
  );
  return rows.rows;
}

/** A secret standing alone (a number inside a longer number or a hex id is something else). */
const alone = (secret: string) => `(^|[^0-9A-Za-z])${secret.replace(/[^\w-]/g, '')}([^0-9A-Za-z]|$)`;

/** Where in the database `secret` can be read: `table.column` with how many rows hold it. */
async function whereStored(db: pg.Pool, secret: string): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  for (const { table, column } of await textColumns(db)) {
    const n = (
      await db.query(`select count(*)::int as n from "${table}" where "${column}"::text ~ $1`, [
        alone(secret),
      ])
    ).rows[0].n as number;
    if (n > 0) found[`${table}.${column}`] = n;
  }
  return found;
}

/** An active user with a password (made in the database: no code is read to make it). */
async function passwordUser(t: TestApp, email: string) {
  const password = 'Tr4ding-Desk#Nova';
  const id = await plainUser(t.db.pool, email);
  await t.db.pool.query('update users set password_digest = $2 where id = $1', [
    id,
    await hashPassword(password),
  ]);
  return { email, password };
}

/**
 * The newest mail the SMTP sink received, decoded enough to read (quoted-printable soft breaks joined), once the
 * sender has delivered every queued message (a request only queues its mail).
 */
async function lastDelivered(): Promise<string> {
  await within(5_000, async () => {
    const queued = await prod.db.pool.query('select count(*)::int as n from mail_outbox where queued');
    return queued.rows[0].n === 0;
  });
  return (inbox.at(-1) ?? '').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
}

const post = (t: TestApp, url: string, payload: Record<string, unknown>, headers = {}) =>
  t.app.inject({ method: 'POST', url: `/api/v2/barong${url}`, payload, headers, remoteAddress: nextIp() });

describe('production (SMTP, no developer tools): what an auditor with database and log access finds', () => {
  it('a reset link and a login code reach the user and are in no row and no log line', async () => {
    captureWarnings();
    const { email } = await passwordUser(prod, 'audited@example.com');

    // A reset link: in the user's mailbox, not in the database.
    expect((await post(prod, '/identity/users/password/generate_code', { email })).statusCode).toBe(201);
    const token = /\/password-reset\/([\w-]+)/.exec(await lastDelivered())?.[1] ?? '';
    expect(token.length).toBeGreaterThan(20);
    expect(await whereStored(prod.db.pool, token)).toEqual({});
    const reset = await post(prod, '/identity/users/password/confirm_code', {
      reset_password_token: token,
      password: 'Fresh-Start#42',
      confirm_password: 'Fresh-Start#42',
    });
    expect(reset.statusCode, reset.body).toBe(201);

    // A login code: delivered, not stored; it signs the user in.
    const login = { session_type: 'email', email, password: 'Fresh-Start#42' };
    expect((await post(prod, '/identity/sessions/resent_otp', login)).statusCode).toBe(201);
    const loginCode = /code [^\n]*is (\d{5})/.exec(await lastDelivered())?.[1] ?? '';
    expect(loginCode).toMatch(/^\d{5}$/);
    expect(await whereStored(prod.db.pool, loginCode)).toEqual({});
    const session = await post(prod, '/identity/sessions', { ...login, code: loginCode });
    expect(session.statusCode, session.body).toBe(200);

    // The log worked (requests were logged at trace level) and holds neither.
    const log = [...logLines, ...warnings].join('\n');
    expect(log).toContain('confirm_code');
    for (const secret of [token, loginCode]) expect(log, secret).not.toMatch(new RegExp(alone(secret)));
    // What support can still see: that each message was sent, to whom, which template, when.
    await lastDelivered();
    const records = await prod.db.pool.query(
      'select template, secret_enc, sent_at from mail_outbox where recipient = $1 order by id',
      [email],
    );
    expect(records.rows).toEqual(
      ['password_reset', 'security_notice', 'code.login'].map((template) => ({
        template,
        secret_enc: null,
        sent_at: expect.any(Date),
      })),
    );
  });

  it('a reset link opened in the browser leaves its token in no log line', async () => {
    captureWarnings();
    const { email } = await passwordUser(prod, 'opened@example.com');
    expect((await post(prod, '/identity/users/password/generate_code', { email })).statusCode).toBe(201);
    const token = /\/password-reset\/([\w-]+)/.exec(await lastDelivered())?.[1] ?? '';
    expect(token.length).toBeGreaterThan(20);
    // The web app's page, then its check of the link: both are logged (at debug), the token in neither.
    await prod.app.inject({ method: 'GET', url: `/password-reset/${token}` });
    const check = await prod.app.inject({
      method: 'GET',
      url: `/api/v2/barong/identity/sessions/verify_access_token?access_token=${token}`,
    });
    expect(check.statusCode).toBe(200);
    const log = [...logLines, ...warnings].join('\n');
    expect(log).toContain('verify_access_token?access_token=[redacted]');
    expect(log).toContain('/password-reset/[redacted]');
    expect(log).not.toContain(token);
  });

  it('registration codes by mail and SMS reach the user and are in no row', async () => {
    const email = 'registered@example.com';
    const registered = await post(prod, '/identity/users', registration(email));
    expect(registered.statusCode, registered.body).toBe(201);
    const emailCode = /code [^\n]*is (\d{6})/.exec(await lastDelivered())?.[1] ?? '';
    const phoneCode = texts.at(-1)?.secret ?? '';
    expect(emailCode).toMatch(/^\d{6}$/);
    expect(phoneCode).toMatch(/^\d{6}$/);
    expect(await whereStored(prod.db.pool, emailCode)).toEqual({});
    expect(await whereStored(prod.db.pool, phoneCode)).toEqual({});
    // The SMS record keeps who and which template; its text has the slot, not the code.
    const sms = await prod.db.pool.query(`select * from mail_outbox where recipient = $1`, [
      registered.json().phone_number,
    ]);
    expect(sms.rows).toEqual([
      expect.objectContaining({ channel: 'sms', template: 'code.register', secret_enc: null }),
    ]);
    const verified = await post(prod, '/identity/users/verify_account', {
      email,
      phone_number: registered.json().phone_number,
      email_otp: emailCode,
      phone_otp: phoneCode,
    });
    expect(verified.statusCode, verified.body).toBe(200);
  });

  it('a beneficiary pin reaches the user and is in no row and no log line', async () => {
    const who = await member(prod, 'payer@example.com');
    const address = externalAddress('tron');
    const created = await prod.app.inject({
      method: 'POST',
      url: '/api/v2/peatio/account/beneficiaries',
      headers: who.headers,
      // A name that looks like the secret's slot stays text: it cannot make the mail show the pin again.
      payload: { name: 'Cold {{secret}}', currency: 'trx', blockchain_key: 'tron-sim', data: { address } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const mail = await lastDelivered();
    const pin = /Use (\d{6}) to activate/.exec(mail)?.[1] ?? '';
    expect(pin).toMatch(/^\d{6}$/);
    expect(await whereStored(prod.db.pool, pin)).toEqual({});
    expect([...logLines, ...warnings].join('\n')).not.toMatch(new RegExp(alone(pin)));
    // The name is shown as typed (its braces broken up), and the pin only where the message puts it.
    expect(mail).toContain('"Cold { {secret}}"');
    expect(mail.split(pin)).toHaveLength(3);
    const activated = await prod.app.inject({
      method: 'PATCH',
      url: `/api/v2/peatio/account/beneficiaries/${created.json().id}/activate`,
      headers: who.headers,
      payload: { pin },
    });
    expect(activated.statusCode, activated.body).toBe(200);
  });
});

describe('development outbox (DEV_TOOLS, mail through the mail simulator)', () => {
  it('shows a code once: the exchange keeps none, the mailbox keeps it sealed until it is shown, then nothing does', async () => {
    const { email, password } = await passwordUser(dev, 'once@example.com');
    const sent = await post(dev, '/identity/sessions/resent_otp', { session_type: 'email', email, password });
    expect(sent.statusCode).toBe(201);
    await dev.deps.flushMail?.();
    // Delivered over SMTP: the exchange keeps the template and the Message-ID, the code nowhere (not even sealed).
    const kept = (await dev.db.pool.query('select * from mail_outbox order by id desc limit 1')).rows[0];
    expect(`${kept.subject} ${kept.body}`).not.toMatch(/\d{5}/);
    expect(kept).toMatchObject({ recipient: email, template: 'code.login', secret_enc: null, queued: false });
    expect(kept.provider_ref).toMatch(/^<[^<>]+@[^<>]+>$/);
    // The mail server keeps the message, its subject and text sealed.
    const held = await dev.db.pool.query(
      'select rcpt_to, content_sealed from mailsim_messages where message_id = $1',
      [kept.provider_ref],
    );
    expect(held.rows).toEqual([{ rcpt_to: email, content_sealed: expect.any(Buffer) }]);

    const [first] = await outbox(dev, email);
    const code = first?.secret ?? '';
    expect(code).toMatch(/^\d{5}$/);
    expect(first?.body).toContain(`is ${code}.`);
    expect(first?.subject).toBe(`Your verification code: ${code}`);
    // Shown, then gone: no column of any table holds it, the mail server's included.
    expect(await whereStored(dev.db.pool, code)).toEqual({});
    const after = await dev.db.pool.query(
      'select content_sealed, shown_at from mailsim_messages where message_id = $1',
      [kept.provider_ref],
    );
    expect(after.rows).toEqual([{ content_sealed: null, shown_at: expect.any(Date) }]);

    const [again] = await outbox(dev, email);
    expect(again?.secret).toBeNull();
    expect(again?.body).toContain('is [redacted].');
    expect(again?.body).not.toContain(code);
    // Reading it did not spend it: the user signs in with the code they were shown.
    const session = await post(dev, '/identity/sessions', { session_type: 'email', email, password, code });
    expect(session.statusCode, session.body).toBe(200);
  });

  it('with MAIL_PROVIDER=outbox, keeps the code only sealed until the outbox shows it', async () => {
    const tableOnly = await createTestApp({}, { MAIL_PROVIDER: 'outbox' });
    try {
      const { email, password } = await passwordUser(tableOnly, 'table-only@example.com');
      await post(tableOnly, '/identity/sessions/resent_otp', { session_type: 'email', email, password });
      const kept = (await tableOnly.db.pool.query('select * from mail_outbox order by id desc limit 1'))
        .rows[0];
      expect(`${kept.subject} ${kept.body}`).not.toMatch(/\d{5}/);
      expect(kept).toMatchObject({
        recipient: email,
        template: 'code.login',
        secret_enc: expect.any(String),
      });
      const [first] = await outbox(tableOnly, email);
      expect(first?.secret).toMatch(/^\d{5}$/);
      expect(await whereStored(tableOnly.db.pool, first?.secret ?? '')).toEqual({});
      expect((await outbox(tableOnly, email))[0]?.secret).toBeNull();
    } finally {
      await tableOnly.close();
    }
  });

  it('gives a secret to one of three readers at once, never to two', async () => {
    const { email, password } = await passwordUser(dev, 'race@example.com');
    await post(dev, '/identity/sessions/resent_otp', { session_type: 'email', email, password });
    const reads = await Promise.all([outbox(dev, email), outbox(dev, email), outbox(dev, email)]);
    expect(reads.filter(([m]) => /\d{5}/.test(m?.body ?? ''))).toHaveLength(1);
  });

  it('drops a code nobody read after an hour, and purges records after MAIL_RETENTION_DAYS', async () => {
    const { email, password } = await passwordUser(dev, 'old@example.com');
    await post(dev, '/identity/users/password/generate_code', { email });
    await post(dev, '/identity/sessions/resent_otp', { session_type: 'email', email, password });
    await dev.deps.flushMail?.();
    const [oldest, newer] = (
      await dev.db.pool.query('select id from mail_outbox where recipient = $1 order by id', [email])
    ).rows.map((r) => r.id as string);
    const age = (id: string | undefined, interval: string) =>
      dev.db.pool.query(`update mail_outbox set created_at = now() - $2::interval where id = $1`, [
        id,
        interval,
      ]);
    await age(oldest, '8 days');
    await age(newer, '6 days');
    // The mail server's copies unread for two hours: their content is dropped at the next look.
    await dev.db.pool.query(
      `update mailsim_messages set received_at = now() - interval '2 hours' where rcpt_to = $1`,
      [email],
    );

    expect(await dev.deps.outboxRetention.run()).toBe(1);
    const left = await dev.db.pool.query(
      'select id, template, secret_enc from mail_outbox where recipient = $1',
      [email],
    );
    expect(left.rows).toEqual([{ id: newer, template: 'code.login', secret_enc: null }]);
    expect((await outbox(dev, email))[0]?.body).toContain('is [redacted].');
    const held = await dev.db.pool.query('select content_sealed from mailsim_messages where rcpt_to = $1', [
      email,
    ]);
    expect(held.rows).toEqual([{ content_sealed: null }, { content_sealed: null }]);
  });
});

it('lastCode reads through the dev outbox, so a second read of one message finds nothing', async () => {
  const { email, password } = await passwordUser(dev, 'twice@example.com');
  await post(dev, '/identity/sessions/resent_otp', { session_type: 'email', email, password });
  expect(await lastCode(dev, email)).toMatch(/^\d{5}$/);
  await expect(lastCode(dev, email)).rejects.toThrow('no code sent');
});
