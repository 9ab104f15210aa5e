import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { up as normalisePhones } from '../../src/db/migrations/0034_phones_e164.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import {
  barongCall,
  lastCode,
  loginWithEmailCode,
  postFrom,
  registration,
  signedInUser,
} from '../support/identity.ts';

/**
 * Phone numbers in one form (issue 32, accounts item 12): E.164 digits (Barong's `phone_number`, no `+`) at every
 * way in, the same mobile typed with or without its trunk 0 is one identity, a number that cannot be a mobile
 * of the chosen country is refused, and the migration normalises what is stored without duplicates.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (url: string, payload: unknown) => postFrom(t)(url, payload);
const call = barongCall(() => t);
const phonesOf = async (email: string) =>
  (
    await t.db.pool.query(
      `select p.country, p.number, p.validated_at is not null as verified from phones p
       join users u on u.id = p.user_id where u.email = $1 order by p.id`,
      [email],
    )
  ).rows;

/** Registers in Japan with `national` and verifies both codes; returns the stored number. */
async function registerAndVerify(email: string, national: string): Promise<string> {
  const res = await post(
    '/identity/users',
    registration(email, { country: 'JP', country_code: '81', phone_number: national }),
  );
  expect(res.statusCode, res.body).toBe(201);
  const phone = res.json().phone_number as string;
  const verified = await post('/identity/users/verify_account', {
    email,
    email_otp: await lastCode(t, email),
    phone_otp: await lastCode(t, phone),
  });
  expect(verified.statusCode, verified.body).toBe(200);
  return phone;
}

describe('phone numbers as E.164 digits', () => {
  it('stores the mobile typed with its trunk 0 as the one typed without, and it is one identity', async () => {
    expect(await registerAndVerify('trunk@example.com', '09022223333')).toBe('819022223333');
    expect(await phonesOf('trunk@example.com')).toEqual([
      { country: 'JP', number: '819022223333', verified: true },
    ]);
    // The same mobile without its trunk 0 is the same number: a second account cannot have it.
    const again = await post(
      '/identity/users',
      registration('trunk2@example.com', { country: 'JP', country_code: '81', phone_number: '9022223333' }),
    );
    expect(again.json()).toEqual({ errors: ['resource.phone.number_exist'] });
    expect(await phonesOf('trunk2@example.com')).toEqual([]);

    // A phone login finds it however it is spelt: the code goes to its number, so the next spellings wait for
    // that number's resend minute.
    const send = (phone_number: string) =>
      post('/identity/sessions/resent_otp', {
        session_type: 'phone',
        phone_number,
        password: registration('x@example.com').password,
      });
    expect((await send('8109022223333')).statusCode).toBe(201);
    for (const phone_number of ['819022223333', '+81 90 2222 3333']) {
      const res = await send(phone_number);
      expect(res.json(), phone_number).toEqual({ errors: ['identity.session.phone_resend_limit'] });
    }
    const stranger = await send('819022229999');
    expect(stranger.statusCode).toBe(401);
  });

  it('refuses a registration number that cannot be a mobile of the chosen country', async () => {
    for (const phone_number of ['0312345678', '9123456789', '90123']) {
      const res = await post(
        '/identity/users',
        registration('landline@example.com', { country: 'JP', country_code: '81', phone_number }),
      );
      expect(res.statusCode, phone_number).toBe(422);
      expect(res.json(), phone_number).toEqual({ errors: ['identity.user.invalid_phone'] });
    }
    expect(await phonesOf('landline@example.com')).toEqual([]);
  });

  it('the Change number of a pending registration takes only a mobile, stored as E.164', async () => {
    const res = await post(
      '/identity/users',
      registration('pending@example.com', { country: 'JP', country_code: '81', phone_number: '09044445555' }),
    );
    const token = res.json().registration_token as string;
    const change = (phone_number: string) =>
      post('/identity/users/edit/phone_number', {
        email: 'pending@example.com',
        country_code: '81',
        phone_number,
        registration_token: token,
      });
    expect((await change('0312345678')).json()).toEqual({ errors: ['identity.user.invalid_phone'] });
    const changed = await change('08066667777');
    expect(changed.json()).toEqual({ email: 'pending@example.com', phone_number: '818066667777' });
    expect(await phonesOf('pending@example.com')).toEqual([
      { country: 'JP', number: '818066667777', verified: false },
    ]);
  });

  it('a phone change takes a mobile of the chosen country, in any spelling, and refuses the rest', async () => {
    const { email, session } = await signedInUser(t, 'change-e164@example.com');
    const start = (phone_number: string, country: string) =>
      call('POST', '/resource/phones', session, { phone_number, country });
    // A Vienna landline; an Austrian mobile said to be Japanese; too short.
    expect((await start('431234567890', 'AT')).json()).toEqual({ errors: ['resource.phone.invalid_num'] });
    expect((await start('436641234599', 'JP')).json()).toEqual({ errors: ['resource.phone.invalid_num'] });
    expect((await start('4366412', 'AT')).json()).toEqual({ errors: ['resource.phone.invalid_num'] });
    // With the trunk 0 after the calling code: the code goes to the E.164 number.
    expect((await start('43 0664 1234599', 'AT')).statusCode).toBe(201);
    const code = await lastCode(t, '436641234599');
    const ok = await call('POST', '/resource/phones/verify', session, {
      phone_number: '+43 664 1234599',
      country: 'AT',
      verification_code: code,
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(await phonesOf(email)).toEqual([{ country: 'AT', number: '436641234599', verified: true }]);
    // It is a login now, by any spelling.
    const res = await post('/identity/sessions/resent_otp', {
      session_type: 'phone',
      phone_number: '4306641234599',
      password: registration('x@example.com').password,
    });
    expect(res.statusCode).toBe(201);
    expect(await loginWithEmailCode(t, email, registration('x@example.com').password)).toBeTruthy();
  });
});

describe('the migration to E.164', () => {
  it('normalises stored numbers, merges an account’s twins and leaves one verified account per number', async () => {
    const owner = t.db.ownerPool;
    const user = async (email: string) =>
      (
        await owner.query(
          `insert into users (uid, email, password_digest, level, state) values ($1, $2, 'x', 2, 'active') returning id`,
          [`ID${Math.floor(Math.random() * 1e8)}`, email],
        )
      ).rows[0].id as string;
    const [a, b, c] = [
      await user('mig-a@example.com'),
      await user('mig-b@example.com'),
      await user('mig-c@example.com'),
    ];
    // As an earlier version stored them: the trunk 0 kept, twins of one account, one mobile on two accounts.
    await owner.query('drop index phones_verified_number_key');
    await owner.query(
      `insert into phones (user_id, country, number, validated_at) values
         ($1, 'AT', '4306641110001', now() - interval '3 days'),
         ($1, 'AT', '436641110001', null),
         ($2, 'AT', '436641110002', now() - interval '2 days'),
         ($3, 'AT', '4306641110002', now() - interval '1 day'),
         ($3, 'AT', '431234567890', now() - interval '1 day')`,
      [a, b, c],
    );
    const client = await owner.connect();
    try {
      await client.query('begin');
      await normalisePhones(client);
      await client.query('commit');
    } finally {
      client.release();
    }
    // A: one row, verified, normalised.
    expect(await phonesOf('mig-a@example.com')).toEqual([
      { country: 'AT', number: '436641110001', verified: true },
    ]);
    // B verified 0664 111 0002 before C did: it stays verified on C, B keeps it unverified and is told.
    expect(await phonesOf('mig-b@example.com')).toEqual([
      { country: 'AT', number: '436641110002', verified: false },
    ]);
    expect(await phonesOf('mig-c@example.com')).toEqual([
      { country: 'AT', number: '436641110002', verified: true },
      // A landline is no mobile: left as it was.
      { country: 'AT', number: '431234567890', verified: true },
    ]);
    const told = await owner.query(`select action, result, topic from activities where user_id = $1`, [b]);
    expect(told.rows).toEqual([{ action: 'phone.unverified', result: 'failed', topic: 'phone' }]);
    // From now on the database itself keeps one verified account per number.
    await expect(
      owner.query(`update phones set validated_at = now() where user_id = $1`, [b]),
    ).rejects.toThrow(/phones_verified_number_key/);
  });
});
