import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE_POLICY } from '../../src/modules/identity/codes.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { activeUser, lastCode, loginWithEmailCode, postFrom, registration } from '../support/identity.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  postFrom(t)(url, payload, headers);
const userCount = async () =>
  (await t.db.pool.query('select count(*)::int as n from users')).rows[0].n as number;

describe('registration', () => {
  it('creates a pending level-0 account and sends a 6-digit code to email and phone', async () => {
    const body = registration('priya@example.com', { phone_number: '09876543210' });
    const res = await post('/identity/users', body);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      email: 'priya@example.com',
      phone_number: '919876543210',
      registration_token: expect.stringMatching(/^\d+\.[0-9a-f]{64}$/),
    });
    const user = (await t.db.pool.query(`select * from users where email = 'priya@example.com'`)).rows[0];
    expect(user).toMatchObject({ level: 0, state: 'pending' });
    expect(user.password_digest).toMatch(/^\$argon2id\$/);
    expect(await lastCode(t, 'priya@example.com')).toMatch(/^\d{6}$/);
    expect(await lastCode(t, '919876543210')).toMatch(/^\d{6}$/);
    const stored = (await t.db.pool.query('select code_hash from one_time_codes')).rows.map(
      (r) => r.code_hash,
    );
    expect(stored.every((h: string) => /^[0-9a-f]{64}$/.test(h))).toBe(true);
  });

  it.each([
    ['empty first name', { first_name: '' }, 'identity.user.field_required'],
    ['short name', { first_name: 'Al' }, 'identity.user.invalid_name'],
    ['name with digits', { last_name: 'Sm1th' }, 'identity.user.invalid_name'],
    ['bad email', { email: 'x@mail.example.com' }, 'identity.user.invalid_email'],
    ['short domain', { email: 'x@web.de' }, 'identity.user.invalid_email'],
    ['unsupported country', { country: 'AT', country_code: '43' }, 'identity.user.invalid_country'],
    ['mismatched dial code', { country: 'JP', country_code: '91' }, 'identity.user.invalid_country'],
    ['letters in phone', { phone_number: '98765abc' }, 'identity.user.invalid_phone'],
    ['phone over 14', { phone_number: '123456789012345' }, 'identity.user.invalid_phone'],
    ['no password', { password: '' }, 'password.missing'],
    ['no special character', { password: 'Abcdefghij' }, 'password.pattern'],
    ['no upper case', { password: 'abcdefg#1' }, 'password.pattern'],
    ['too short', { password: 'Ab#1' }, 'password.pattern'],
    ['too long', { password: `Ab#${'x'.repeat(62)}` }, 'password.pattern'],
    ['breached password', { password: 'P@ssw0rd!' }, 'password.weak'],
    [
      'password on the email name',
      { email: 'rahulkumar@example.com', password: 'Rahulkumar#2024' },
      'password.weak',
    ],
  ])('refuses %s and creates nothing', async (_name, overrides, code) => {
    const before = await userCount();
    const res = await post('/identity/users', registration('refused@example.com', overrides));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual([code]);
    expect(await userCount()).toBe(before);
  });

  it('refuses a taken email, in any letter case', async () => {
    const res = await post('/identity/users', registration('PRIYA@example.com'));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ errors: ['identity.user.email_taken'] });
  });
});

describe('account verification', () => {
  it('activates at level 2 with both codes, once', async () => {
    const body = registration('meera@example.com');
    const phone = (await post('/identity/users', body)).json().phone_number;
    const payload = {
      email: 'meera@example.com',
      phone_number: phone,
      email_otp: await lastCode(t, 'meera@example.com'),
      phone_otp: await lastCode(t, phone),
    };
    const wrong = await post('/identity/users/verify_account', {
      ...payload,
      phone_otp: payload.phone_otp === '000000' ? '111111' : '000000',
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors).toEqual(['identity.user.invalid_phone_code']);
    const user = async () =>
      (await t.db.pool.query(`select * from users where email = 'meera@example.com'`)).rows[0];
    expect((await user()).state).toBe('pending');

    const ok = await post('/identity/users/verify_account', payload);
    expect(ok.statusCode).toBe(200);
    expect(await user()).toMatchObject({ state: 'active', level: 2 });
    const labels = await t.db.pool.query(
      `select key, value from labels l join users u on u.id = l.user_id where u.email = 'meera@example.com' order by key`,
    );
    expect(labels.rows).toEqual([
      { key: 'email', value: 'verified' },
      { key: 'phone', value: 'verified' },
    ]);
    const replay = await post('/identity/users/verify_account', payload);
    expect(replay.statusCode).toBe(422);
  });

  it('kills a code after 5 wrong tries', async () => {
    const phone = (await post('/identity/users', registration('ravi@example.com'))).json().phone_number;
    const emailCode = await lastCode(t, 'ravi@example.com');
    const phoneCode = await lastCode(t, phone);
    const wrong = emailCode === '999999' ? '888888' : '999999';
    for (let i = 0; i < 5; i++) {
      await post('/identity/users/verify_account', {
        email: 'ravi@example.com',
        email_otp: wrong,
        phone_otp: phoneCode,
      });
    }
    const res = await post('/identity/users/verify_account', {
      email: 'ravi@example.com',
      email_otp: emailCode,
      phone_otp: phoneCode,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toContain('identity.user.invalid_email_code');
  });

  it('refuses codes that are not 6 digits, and answers unknown emails like wrong codes', async () => {
    const bad = await post('/identity/users/verify_account', {
      email: 'x@example.com',
      email_otp: '12a',
      phone_otp: '',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual(['identity.code.invalid_format', 'identity.user.missing_phone_otp']);
    const unknown = await post('/identity/users/verify_account', {
      email: 'nobody@example.com',
      email_otp: '123456',
      phone_otp: '123456',
    });
    expect(unknown.json().errors).toEqual([
      'identity.user.invalid_email_code',
      'identity.user.invalid_phone_code',
    ]);
  });

  it('limits resends to one a minute and makes the old code useless', async () => {
    const phone = (await post('/identity/users', registration('anil@example.com'))).json().phone_number;
    const res = await post('/identity/users/send_otp/email', { email: 'anil@example.com' });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ errors: ['identity.session.email_resend_limit'] });
    const sms = await post('/identity/users/send_otp/phone', {
      email: 'anil@example.com',
      phone_number: phone,
    });
    expect(sms.json()).toEqual({ errors: ['identity.session.phone_resend_limit'] });
    const old = await lastCode(t, 'anil@example.com');
    // A minute on the app's clock: refused a second before it, sent once it has passed.
    t.clock.advance(59_000);
    expect((await post('/identity/users/send_otp/email', { email: 'anil@example.com' })).statusCode).toBe(
      429,
    );
    t.clock.advance(2_000);
    expect((await post('/identity/users/send_otp/email', { email: 'anil@example.com' })).statusCode).toBe(
      201,
    );
    const fresh = await lastCode(t, 'anil@example.com');
    if (fresh !== old) {
      const res2 = await post('/identity/users/verify_account', {
        email: 'anil@example.com',
        email_otp: old,
        phone_otp: await lastCode(t, phone),
      });
      expect(res2.json().errors).toEqual(['identity.user.invalid_email_code']);
    }
  });

  it('refuses an expired code', async () => {
    const phone = (await post('/identity/users', registration('kiran@example.com'))).json().phone_number;
    // Ten minutes and a second later on the app's clock, both codes are dead.
    t.clock.advance(CODE_POLICY.ttlMinutes * 60_000 + 1_000);
    const res = await post('/identity/users/verify_account', {
      email: 'kiran@example.com',
      email_otp: await lastCode(t, 'kiran@example.com'),
      phone_otp: await lastCode(t, phone),
    });
    expect(res.json().errors).toEqual([
      'identity.user.invalid_email_code',
      'identity.user.invalid_phone_code',
    ]);
  });
});

describe('login', () => {
  it('asks for the second step, then logs in with the emailed 5-digit code and sets a session', async () => {
    const { email, password } = await activeUser(t, 'deepa@example.com');
    const first = await post('/identity/sessions', { session_type: 'email', email, password });
    expect(first.statusCode).toBe(401);
    expect(first.json()).toMatchObject({
      errors: ['identity.session.missing_otp'],
      otp: false,
      level: 2,
      state: 'active',
    });
    const session = await loginWithEmailCode(t, email, password);
    expect(session.csrf).toMatch(/^[\w-]{40,}$/);
    expect(session.user).toMatchObject({ email, level: 2, state: 'active', otp: false });
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/v2/barong/resource/users/me',
      headers: { cookie: session.cookie },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().labels.map((l: { key: string }) => l.key)).toEqual(['email', 'phone']);
    const activity = await t.app.inject({
      method: 'GET',
      url: '/api/v2/barong/resource/users/activity/session?limit=1',
      headers: { cookie: session.cookie },
    });
    expect(activity.json()).toHaveLength(1);
    expect(activity.json()[0]).toMatchObject({ action: 'login', result: 'succeed' });
  });

  it('logs in with the phone and an SMS code', async () => {
    const { phone, password } = await activeUser(t, 'sanjay@example.com');
    const sent = await post('/identity/sessions/resent_otp', {
      session_type: 'phone',
      phone_number: phone,
      password,
    });
    expect(sent.statusCode).toBe(201);
    const res = await post('/identity/sessions', {
      session_type: 'phone',
      phone_number: phone,
      password,
      code: await lastCode(t, phone),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().email).toBe('sanjay@example.com');
  });

  it('answers a pending account with its level and state and no session', async () => {
    const body = registration('pending@example.com');
    await post('/identity/users', body);
    await t.db.pool.query(`update one_time_codes set created_at = now() - interval '2 minutes'`);
    const res = await post('/identity/sessions', {
      session_type: 'email',
      email: 'pending@example.com',
      password: body.password,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ level: 0, state: 'pending' });
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('counts wrong passwords, tells how many are left, then blocks', async () => {
    const { email, password } = await activeUser(t, 'lock@example.com');
    const lefts: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await post('/identity/sessions', { email, password: 'Wrong#Password1' });
      expect(res.statusCode).toBe(401);
      expect(res.json().errors).toEqual(['identity.session.invalid_params']);
      lefts.push(res.json().left);
    }
    expect(lefts).toEqual([4, 3, 2, 1]);
    const fifth = await post('/identity/sessions', { email, password: 'Wrong#Password1' });
    expect(fifth.json()).toEqual({
      errors: ['identity.session.account_blocked', 'identity.session.too_many_attempts'],
    });
    const right = await post('/identity/sessions', { email, password });
    expect(right.json().errors).toEqual([
      'identity.session.account_blocked',
      'identity.session.too_many_attempts',
    ]);
  });

  it('blocks the account, not the identifier: failures by email block the phone login and the reverse', async () => {
    const wrong = 'Wrong#Password1';
    const blocked = ['identity.session.account_blocked', 'identity.session.too_many_attempts'];
    const byEmail = await activeUser(t, 'either@example.com');
    // Three by email in two spellings, two by phone: five failures of one account.
    for (const email of [byEmail.email, ' EITHER@Example.com ', byEmail.email]) {
      expect((await post('/identity/sessions', { email, password: wrong })).statusCode).toBe(401);
    }
    const phone = { session_type: 'phone', phone_number: `+${byEmail.phone}` };
    // The attempts left are shown per identifier (they must not link the phone to the email); the lock is not.
    expect((await post('/identity/sessions', { ...phone, password: wrong })).json().left).toBe(4);
    expect((await post('/identity/sessions', { ...phone, password: wrong })).json().errors).toEqual(blocked);
    const rightByPhone = await post('/identity/sessions/resent_otp', {
      ...phone,
      password: byEmail.password,
    });
    expect(rightByPhone.json().errors).toEqual(blocked);
    const rightByEmail = await post('/identity/sessions', {
      email: byEmail.email,
      password: byEmail.password,
    });
    expect(rightByEmail.json().errors).toEqual(blocked);

    const byPhone = await activeUser(t, 'reverse@example.com');
    for (let i = 0; i < 5; i++) {
      await post('/identity/sessions', {
        session_type: 'phone',
        phone_number: byPhone.phone,
        password: wrong,
      });
    }
    const viaEmail = await post('/identity/sessions', { email: byPhone.email, password: byPhone.password });
    expect(viaEmail.json().errors).toEqual(blocked);
  });

  it('answers unknown and known emails alike', async () => {
    const { email } = await activeUser(t, 'known@example.com');
    const known = await post('/identity/sessions', { email, password: 'Wrong#Password1' });
    const unknown = await post('/identity/sessions', {
      email: 'unknown@example.com',
      password: 'Wrong#Password1',
    });
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.json()).toEqual(known.json());
    const codeKnown = await post('/identity/sessions/resent_otp', { email, password: 'Wrong#Password1' });
    const codeUnknown = await post('/identity/sessions/resent_otp', {
      email: 'unknown@example.com',
      password: 'Wrong#Password1',
    });
    expect(codeUnknown.statusCode).toBe(codeKnown.statusCode);
    expect(codeUnknown.json().errors).toEqual(codeKnown.json().errors);
  });

  it('refuses a wrong second-step code and counts it', async () => {
    const { email, password } = await activeUser(t, 'second@example.com');
    await post('/identity/sessions/resent_otp', { email, password });
    const code = await lastCode(t, email);
    const res = await post('/identity/sessions', {
      email,
      password,
      code: code === '00000' ? '11111' : '00000',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ errors: ['identity.session.invalid_code'], left: 4 });
  });
});
