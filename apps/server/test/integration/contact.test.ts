import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.ownerPool.query('truncate contact_messages, mail_outbox');
});

const good = {
  email: 'anna@example.com',
  subject: 'Deposit question',
  name: 'Anna Nowak',
  message: 'Hello!',
};
let ip = 0;

async function post(body: unknown) {
  ip++;
  return t.app.inject({
    method: 'POST',
    url: '/api/v2/barong/identity/inquiry',
    payload: body as Record<string, unknown>,
    remoteAddress: `10.0.0.${ip % 250}`,
  });
}

async function counts() {
  const m = await t.db.pool.query('select count(*)::int as n from contact_messages');
  const o = await t.db.pool.query('select count(*)::int as n from mail_outbox');
  return { messages: m.rows[0].n, outbox: o.rows[0].n };
}

describe('POST /identity/inquiry', () => {
  it('stores the message and mails support', async () => {
    const res = await post(good);
    expect(res.statusCode).toBe(201);
    const row = (await t.db.pool.query('select * from contact_messages')).rows[0];
    expect(row).toMatchObject({
      email: good.email,
      subject: good.subject,
      name: good.name,
      message: good.message,
    });
    const mail = (await t.db.pool.query('select * from mail_outbox')).rows[0];
    expect(mail).toMatchObject({ channel: 'email', recipient: 'support@example.com', reply_to: good.email });
    expect(mail.subject).toContain(good.subject);
    expect(mail.body).toContain(good.message);
  });

  it('derives user_type from the session, never from the body', async () => {
    await post({ ...good, user_type: 'Authorize User' });
    const row = (await t.db.pool.query('select user_type from contact_messages')).rows[0];
    expect(row.user_type).toBe('Non Authorize User');
  });

  it.each([
    ['missing email', { ...good, email: undefined }, 'identity.inquiry.missing_email'],
    ['empty email', { ...good, email: '' }, 'identity.inquiry.missing_email'],
    ['whitespace email', { ...good, email: '   ' }, 'identity.inquiry.email_whitespace'],
    ['invalid email', { ...good, email: 'anna@' }, 'identity.inquiry.invalid_email'],
    ['missing subject', { ...good, subject: '' }, 'identity.inquiry.missing_subject'],
    ['subject over 200', { ...good, subject: 's'.repeat(201) }, 'identity.inquiry.subject_too_long'],
    ['missing name', { ...good, name: ' ' }, 'identity.inquiry.missing_name'],
    ['name over 200', { ...good, name: 'n'.repeat(201) }, 'identity.inquiry.name_too_long'],
    ['name with digits', { ...good, name: 'Anna 2' }, 'identity.inquiry.name_has_number'],
    ['missing message', { ...good, message: '' }, 'identity.inquiry.missing_message'],
    ['message over 500', { ...good, message: 'm'.repeat(501) }, 'identity.inquiry.message_too_long'],
    ['unknown user_type', { ...good, user_type: 'Robot' }, 'identity.inquiry.invalid_user_type'],
    ['non-string email', { ...good, email: 42 }, 'identity.inquiry.missing_email'],
  ])('refuses %s with 422 and stores nothing', async (_name, body, code) => {
    const res = await post(body);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ errors: [code] });
    expect(await counts()).toEqual({ messages: 0, outbox: 0 });
  });

  it('reports every invalid field at once', async () => {
    const res = await post({});
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual([
      'identity.inquiry.missing_email',
      'identity.inquiry.missing_subject',
      'identity.inquiry.missing_name',
      'identity.inquiry.missing_message',
    ]);
  });

  it('rate-limits one client to 5 messages a minute', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v2/barong/identity/inquiry',
        payload: good,
        remoteAddress: '10.9.9.9',
      });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) expect(res.json()).toEqual({ errors: ['server.rate_limited'] });
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429]);
    expect((await counts()).messages).toBe(5);
  });
});
