import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registrationToken } from '../../src/modules/identity/registration-token.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { lastCode, nextIp, postFrom, registration } from '../support/identity.ts';

// Changing the phone of a pending registration needs the registering browser's token (issue 25, item 6).
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (url: string, payload: unknown) => postFrom(t)(url, payload);
const PATH = '/identity/users/edit/phone_number';
const INVALID = { errors: ['identity.user.invalid_registration_token'] };

/** Registers `email` (a victim's pending registration); returns its phone and registration token. */
async function pending(email: string) {
  const res = await post('/identity/users', registration(email));
  expect(res.statusCode).toBe(201);
  // The registration just sent codes: age them so the next send is not held back by the resend pause.
  await t.db.pool.query(`update one_time_codes set created_at = now() - interval '2 minutes'`);
  return { phone: res.json().phone_number as string, token: res.json().registration_token as string };
}
const phoneOf = async (email: string) =>
  (
    await t.db.pool.query(
      'select p.number from phones p join users u on u.id = p.user_id where u.email = $1 order by p.id desc limit 1',
      [email],
    )
  ).rows[0]?.number as string;
const smsTo = async (number: string) =>
  (await t.db.pool.query('select count(*)::int as n from mail_outbox where recipient = $1', [number])).rows[0]
    .n as number;

describe('changing the phone of a pending registration', () => {
  it("is never a GET: the old query by email alone changes nothing and sends the attacker's number nothing", async () => {
    const { phone } = await pending('victim-get@example.com');
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v2/barong${PATH}?email=victim-get@example.com&country_code=81&phone_number=09011110000`,
      remoteAddress: nextIp(),
    });
    // The path takes POST only (with the registration token).
    expect([res.statusCode, res.headers.allow]).toEqual([405, 'POST']);
    expect(await phoneOf('victim-get@example.com')).toBe(phone);
    expect(await smsTo('819011110000')).toBe(0);
  });

  it("refuses without the registration token, or with another registration's, and changes nothing", async () => {
    const { phone } = await pending('victim@example.com');
    const attacker = await pending('attacker-reg@example.com');
    const change = { email: 'victim@example.com', country_code: '81', phone_number: '09011112222' };
    const missing = await post(PATH, change);
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toEqual(INVALID);
    const borrowed = await post(PATH, { ...change, registration_token: attacker.token });
    expect(borrowed.json()).toEqual(INVALID);
    const forged = await post(PATH, { ...change, registration_token: `9999999999.${'0'.repeat(64)}` });
    expect(forged.json()).toEqual(INVALID);
    expect(await phoneOf('victim@example.com')).toBe(phone);
    expect(await smsTo('819011112222')).toBe(0);
  });

  it('refuses an expired token', async () => {
    await pending('expired@example.com');
    const id = (await t.db.pool.query(`select id from users where email = 'expired@example.com'`)).rows[0].id;
    const old = registrationToken(t.deps.keys, String(id), Date.now() - 2 * 60 * 60_000);
    const res = await post(PATH, {
      email: 'expired@example.com',
      country_code: '81',
      phone_number: '09011113333',
      registration_token: old,
    });
    expect(res.json()).toEqual(INVALID);
  });

  it('answers an unknown email, a verified account and a pending one alike without the right token', async () => {
    await pending('pending-oracle@example.com');
    await pending('active-oracle@example.com');
    await t.db.pool.query(`update users set state = 'active' where email = 'active-oracle@example.com'`);
    const token = `${Math.floor(Date.now() / 1000) + 600}.${'a'.repeat(64)}`;
    const answers = await Promise.all(
      ['pending-oracle@example.com', 'active-oracle@example.com', 'nobody-oracle@example.com'].map((email) =>
        post(PATH, { email, country_code: '81', phone_number: '09011114444', registration_token: token }),
      ),
    );
    for (const answer of answers) {
      expect(answer.statusCode).toBe(422);
      expect(answer.json()).toEqual(INVALID);
    }
  });

  it('changes the number with the token of the registration, and with the one a pending login hands out', async () => {
    const { token } = await pending('owner@example.com');
    const res = await post(PATH, {
      email: 'owner@example.com',
      country_code: '81',
      phone_number: '09011115555',
      registration_token: token,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ email: 'owner@example.com', phone_number: '819011115555' });
    expect(await lastCode(t, '819011115555')).toMatch(/^\d{6}$/);
    // Back later in another tab: the password of the pending account gets a fresh token.
    await t.db.pool.query(`update one_time_codes set created_at = now() - interval '2 minutes'`);
    const login = await post('/identity/sessions', {
      email: 'owner@example.com',
      password: registration('x').password,
    });
    expect(login.json()).toMatchObject({ state: 'pending', registration_token: expect.any(String) });
    await t.db.pool.query(`update one_time_codes set created_at = now() - interval '2 minutes'`);
    const again = await post(PATH, {
      email: 'owner@example.com',
      country_code: '81',
      phone_number: '09011116666',
      registration_token: login.json().registration_token,
    });
    expect(again.statusCode).toBe(200);
    expect(await phoneOf('owner@example.com')).toBe('819011116666');
  });

  it('is limited per email, from every address together, before anything is looked up', async () => {
    for (const email of ['limited@example.com', 'limited-nobody@example.com']) {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await post(PATH, {
          email,
          country_code: '81',
          phone_number: '09011117777',
          registration_token: `${Math.floor(Date.now() / 1000) + 600}.${'b'.repeat(64)}`,
        });
        statuses.push(res.statusCode);
      }
      expect(statuses, email).toEqual([422, 422, 422, 422, 422, 429]);
    }
  });
});
