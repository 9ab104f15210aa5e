import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import {
  barongCall,
  cookieHeader,
  enableTwoFactor,
  forgetUsedTotp,
  lastCode,
  oathtoolCode,
  signedInUser,
} from '../support/identity.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const call = barongCall(() => t);
const signedIn = (email: string) => signedInUser(t, email);

describe('two-factor authentication', () => {
  it('enables with a code from an independent TOTP implementation, then logins need TOTP', async () => {
    const { email, password, session } = await signedIn('totp@example.com');
    const anonymous = await call('POST', '/resource/otp/generate_qrcode');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.body).not.toContain('barcode');
    const qr = await call('POST', '/resource/otp/generate_qrcode', session);
    expect(qr.statusCode).toBe(201);
    // Barong's barcode is the bare base64 of a PNG (BaseApp adds the data URL prefix itself).
    const barcode: string = qr.json().data.barcode;
    expect(barcode).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(barcode.startsWith('data:')).toBe(false);
    expect(Buffer.from(barcode, 'base64').subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
    const url = new URL(qr.json().data.url);
    expect(url.protocol).toBe('otpauth:');
    const secret = url.searchParams.get('secret') ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);

    // Barong 2.6.49's codes and statuses (issue 30): a wrong or malformed code is `resource.otp.invalid` (422).
    const wrong = await call('POST', '/resource/otp/enable', session, { code: oathtoolCode(secret, 300) });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toEqual({ errors: ['resource.otp.invalid'] });
    const malformed = await call('POST', '/resource/otp/enable', session, { code: '12ab56' });
    expect(malformed.json()).toEqual({ errors: ['resource.otp.invalid'] });
    // Checking a code before two-factor is on: 400 not_enabled.
    const early = await call('POST', '/resource/otp/verify', session, { code: oathtoolCode(secret) });
    expect(early.statusCode).toBe(400);
    expect(early.json()).toEqual({ errors: ['resource.otp.not_enabled'] });
    expect(await call('POST', '/resource/otp/enable', session, { code: '' }).then((r) => r.json())).toEqual({
      errors: ['resource.otp.missing_code'],
    });
    const code = oathtoolCode(secret);
    expect((await call('POST', '/resource/otp/enable', session, { code })).statusCode).toBe(201);
    const stored = (await t.db.pool.query('select otp, otp_secret_enc from users where email = $1', [email]))
      .rows[0];
    expect(stored.otp).toBe(true);
    expect(stored.otp_secret_enc).not.toContain(secret);
    // Once on: a new QR code or enabling again is 400 already_enabled.
    for (const path of ['/resource/otp/generate_qrcode', '/resource/otp/enable']) {
      const twice = await call('POST', path, session, { code: oathtoolCode(secret, 30) });
      expect(twice.statusCode, path).toBe(400);
      expect(twice.json(), path).toEqual({ errors: ['resource.otp.already_enabled'] });
    }

    const first = await call('POST', '/identity/sessions', undefined, { email, password });
    expect(first.json()).toMatchObject({ errors: ['identity.session.missing_otp'], otp: true });
    // The code that enabled 2FA was used up: replaying it is refused, saying so (not "invalid").
    const replay = await call('POST', '/identity/sessions', undefined, { email, password, otp_code: code });
    expect(replay.statusCode).toBe(403);
    expect(replay.json().errors).toEqual(['identity.session.otp_used']);
    const next = oathtoolCode(secret, 30);
    const ok = await call('POST', '/identity/sessions', undefined, { email, password, otp_code: next });
    expect(ok.statusCode).toBe(200);
    const again = await call('POST', '/identity/sessions', undefined, { email, password, otp_code: next });
    expect(again.json().errors).toEqual(['identity.session.otp_used']);
    // Signed in, a resource action with the used code says the same; a wrong code is still "invalid".
    const session2 = { cookie: cookieHeader(ok.headers['set-cookie']), csrf: ok.json().csrf_token as string };
    const used = await call('POST', '/resource/otp/disable', session2, { code: next });
    expect(used.json()).toEqual({ errors: ['resource.otp.code_used'] });
    const bad = await call('POST', '/resource/otp/disable', session2, { code: oathtoolCode(secret, 300) });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({ errors: ['resource.otp.invalid'] });
    // Barong's verify checks a code and changes nothing.
    await forgetUsedTotp(t, email);
    const verified = await call('POST', '/resource/otp/verify', session2, { code: oathtoolCode(secret) });
    expect(verified.statusCode).toBe(201);
    const wrongVerify = await call('POST', '/resource/otp/verify', session2, {
      code: oathtoolCode(secret, 300),
    });
    expect(wrongVerify.json()).toEqual({ errors: ['resource.otp.invalid'] });
  });

  it('refuses codes outside one step of drift', async () => {
    const { email, session } = await signedIn('drift@example.com');
    const secret = await enableTwoFactor(t, session, email);
    const { password } = { password: 'Tr4ding-Desk#Nova' };
    for (const offset of [-90, 90]) {
      const res = await call('POST', '/identity/sessions', undefined, {
        email,
        password,
        otp_code: oathtoolCode(secret, offset),
      });
      expect(res.json().errors, `offset ${offset}`).toEqual(['identity.session.invalid_otp']);
    }
  });

  it('disables only with a valid code', async () => {
    const { email, session } = await signedIn('off@example.com');
    const secret = await enableTwoFactor(t, session, email);
    expect((await call('POST', '/resource/otp/disable', session, { code: '000000' })).statusCode).toBe(422);
    expect(
      (await call('POST', '/resource/otp/disable', session, { code: oathtoolCode(secret) })).statusCode,
    ).toBe(201);
    expect((await t.db.pool.query('select otp from users where email = $1', [email])).rows[0].otp).toBe(
      false,
    );
    // Off already: Barong's 400 not_enabled.
    const again = await call('POST', '/resource/otp/disable', session, { code: oathtoolCode(secret, 30) });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ errors: ['resource.otp.not_enabled'] });
  });
});

describe('API keys', () => {
  const sign = (kid: string, secret: string, nonce = String(Date.now())) => ({
    'x-auth-apikey': kid,
    'x-auth-nonce': nonce,
    'x-auth-signature': createHmac('sha256', secret)
      .update(nonce + kid)
      .digest('hex'),
  });
  const me = (headers: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: '/api/v2/barong/resource/users/me', headers });

  it('needs 2FA, shows the secret once, and signs programs in with HMAC', async () => {
    const { email, session } = await signedIn('keys@example.com');
    const refused = await call('POST', '/resource/api_keys', session, {
      algorithm: 'HS256',
      totp_code: '123456',
    });
    // Barong 2.6.49: 2FA is checked first, whatever the code (400 resource.api_key.2fa_disabled).
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ errors: ['resource.api_key.2fa_disabled'] });
    const noCodeNo2fa = await call('POST', '/resource/api_keys', session, { algorithm: 'HS256' });
    expect(noCodeNo2fa.json()).toEqual({ errors: ['resource.api_key.2fa_disabled'] });

    const secret2fa = await enableTwoFactor(t, session, email);
    const created = await call('POST', '/resource/api_keys', session, {
      algorithm: 'HS256',
      totp_code: oathtoolCode(secret2fa),
    });
    expect(created.statusCode).toBe(201);
    const { kid, secret } = created.json();
    expect(created.json()).toMatchObject({
      algorithm: 'HS256',
      state: 'active',
      accessKey: kid,
      secretKey: secret,
    });
    const list = await call('GET', '/resource/api_keys', session);
    expect(list.headers.total).toBe('1');
    expect(list.json()).toEqual([expect.not.objectContaining({ secret: expect.anything() })]);
    expect(JSON.stringify(list.json())).not.toContain(secret);

    const ok = await me(sign(kid, secret));
    expect(ok.statusCode).toBe(200);
    expect(ok.json().email).toBe(email);

    const nonce = String(Date.now());
    expect((await me(sign(kid, secret, nonce))).statusCode).toBe(200);
    expect((await me(sign(kid, secret, nonce))).json()).toEqual({ errors: ['authz.nonce_expired'] });
    expect((await me(sign(kid, secret, String(Date.now() - 6000)))).json()).toEqual({
      errors: ['authz.nonce_expired'],
    });
    expect((await me(sign(kid, 'f'.repeat(64)))).json()).toEqual({ errors: ['authz.invalid_signature'] });
    expect((await me(sign('ffffffffffffffff', secret))).json()).toEqual({
      errors: ['authz.unexistent_apikey'],
    });
    expect((await me({ 'x-auth-apikey': kid })).json()).toEqual({ errors: ['authz.invalid_apikey_headers'] });

    await forgetUsedTotp(t, email);
    const off = await call('PATCH', `/resource/api_keys/${kid}`, session, {
      state: 'inactive',
      totp_code: oathtoolCode(secret2fa),
    });
    expect(off.statusCode).toBe(200);
    expect((await me(sign(kid, secret))).json()).toEqual({ errors: ['authz.apikey_not_active'] });

    await forgetUsedTotp(t, email);
    await call('PATCH', `/resource/api_keys/${kid}`, session, {
      state: 'active',
      totp_code: oathtoolCode(secret2fa),
    });
    await forgetUsedTotp(t, email);
    await call('POST', '/resource/otp/disable', session, { code: oathtoolCode(secret2fa) });
    expect((await me(sign(kid, secret))).json()).toEqual({ errors: ['authz.disabled_2fa'] });
  });

  it("cannot touch another user's key, and every change needs a valid TOTP code", async () => {
    const owner = await signedIn('owner@example.com');
    const ownerSecret = await enableTwoFactor(t, owner.session, owner.email);
    const { kid } = (
      await call('POST', '/resource/api_keys', owner.session, { totp_code: oathtoolCode(ownerSecret) })
    ).json();
    const other = await signedIn('intruder@example.com');
    const otherSecret = await enableTwoFactor(t, other.session, other.email);
    const patch = await call('PATCH', `/resource/api_keys/${kid}`, other.session, {
      state: 'inactive',
      totp_code: oathtoolCode(otherSecret),
    });
    expect(patch.statusCode).toBe(404);
    const del = await call(
      'DELETE',
      `/resource/api_keys/${kid}?totp_code=${oathtoolCode(otherSecret)}`,
      other.session,
    );
    expect(del.statusCode).toBe(404);
    expect((await t.db.pool.query(`select state from api_keys where kid = $1`, [kid])).rows[0].state).toBe(
      'active',
    );

    await forgetUsedTotp(t, owner.email);
    // Barong 2.6.49's codes (422).
    const noCode = await call('DELETE', `/resource/api_keys/${kid}`, owner.session);
    expect(noCode.statusCode).toBe(422);
    expect(noCode.json()).toEqual({ errors: ['resource.api_key.missing_totp'] });
    const badCode = await call('DELETE', `/resource/api_keys/${kid}?totp_code=000000`, owner.session);
    expect(badCode.statusCode).toBe(422);
    expect(badCode.json()).toEqual({ errors: ['resource.api_key.invalid_totp'] });
    const malformed = await call('PATCH', `/resource/api_keys/${kid}`, owner.session, {
      state: 'inactive',
      totp_code: '12',
    });
    expect(malformed.json()).toEqual({ errors: ['resource.api_key.invalid_totp'] });
    const created = await call('POST', '/resource/api_keys', owner.session, { algorithm: 'HS256' });
    expect(created.json()).toEqual({ errors: ['resource.api_key.missing_totp'] });
    const gone = await call(
      'DELETE',
      `/resource/api_keys/${kid}?totp_code=${oathtoolCode(ownerSecret)}`,
      owner.session,
    );
    expect(gone.statusCode).toBe(204);
  });
});

describe('phone change', () => {
  it('asks 2FA first when enabled, then an SMS code to the new number', async () => {
    const { email, session } = await signedIn('phone@example.com');
    const secret = await enableTwoFactor(t, session, email);
    const noOtp = await call('POST', '/resource/phones', session, {
      phone_number: '819012345678',
      country: 'JP',
    });
    expect(noOtp.json()).toEqual({ errors: ['resource.otp.missing_code'] });
    expect(
      (await call('POST', '/resource/phones/verify_otp_code', session, { otp_code: oathtoolCode(secret) }))
        .statusCode,
    ).toBe(201);
    expect(
      (await call('POST', '/resource/phones', session, { phone_number: '819012345678', country: 'JP' }))
        .statusCode,
    ).toBe(201);
    const code = await lastCode(t, '819012345678');
    const bad = await call('POST', '/resource/phones/verify', session, {
      phone_number: '819012345678',
      verification_code: code === '000000' ? '111111' : '000000',
    });
    expect(bad.json()).toEqual({ errors: ['resource.phone.verification_invalid'] });
    const ok = await call('POST', '/resource/phones/verify', session, {
      phone_number: '819012345678',
      verification_code: code,
    });
    expect(ok.statusCode).toBe(201);
    const me = (await call('GET', '/resource/users/me', session)).json();
    expect(me.phones.at(-1)).toMatchObject({ number: '819012345678' });
    expect(me.phones.at(-1).validated_at).not.toBeNull();
  });

  it('replaces the number: the old one logs in no more, and the country stored is the one chosen', async () => {
    const { phone: old, password, session } = await signedIn('swap@example.com');
    const austrian = '436641234567';
    expect(
      (await call('POST', '/resource/phones', session, { phone_number: austrian, country: 'AT' })).statusCode,
    ).toBe(201);
    const changed = await call('POST', '/resource/phones/verify', session, {
      phone_number: austrian,
      verification_code: await lastCode(t, austrian),
      country: 'AT',
    });
    expect(changed.statusCode, changed.body).toBe(201);
    const me = (await call('GET', '/resource/users/me', session)).json();
    expect(me.phones).toEqual([expect.objectContaining({ country: 'AT', number: austrian })]);

    const phoneLogin = (number: string) =>
      call('POST', '/identity/sessions/resent_otp', undefined, {
        session_type: 'phone',
        phone_number: number,
        password,
      });
    expect((await phoneLogin(austrian)).statusCode).toBe(201);
    const withOld = await phoneLogin(old);
    const neverRegistered = await phoneLogin('819099999999');
    // The old number is refused exactly as a number nobody has (no enumeration).
    expect(withOld.statusCode).not.toBe(201);
    expect([withOld.statusCode, withOld.json()]).toEqual([
      neverRegistered.statusCode,
      neverRegistered.json(),
    ]);
  });

  it('refuses a number verified on another account', async () => {
    const a = await signedIn('phone-a@example.com');
    const b = await signedIn('phone-b@example.com');
    const res = await call('POST', '/resource/phones', b.session, { phone_number: a.phone });
    expect(res.json()).toEqual({ errors: ['resource.phone.number_exist'] });
  });
});

describe('profile', () => {
  const profile = {
    gender: 'female',
    dob: '1990-04-12',
    address: '1 Main St',
    postcode: 'AB12',
    city: 'Pune',
    country: 'IN',
    btnName: 'saveBtn',
  };

  it('saves while KYC is pending and refuses after', async () => {
    const { email, session } = await signedIn('profile@example.com');
    const res = await call('POST', '/resource/profiles', session, profile);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ gender: 'female', dob: '1990-04-12', postcode: 'AB12', city: 'Pune' });
    await t.db.pool.query(
      `insert into labels (user_id, key, value) select id, 'basic-kyc-level', 'in_review' from users where email = $1`,
      [email],
    );
    const locked = await call('PUT', '/resource/profiles', session, profile);
    expect(locked.json()).toEqual({ errors: ['resource.profile.doesnt_exist_or_not_editable'] });
  });

  it.each([
    ['under 18', { dob: `${new Date().getUTCFullYear() - 17}-01-01` }, 'resource.profile.invalid_dob'],
    ['not a date', { dob: '1990-02-30' }, 'resource.profile.invalid_dob'],
    ['postcode with symbols', { postcode: 'AB-12' }, 'resource.profile.invalid_postcode'],
    ['postcode over 10', { postcode: 'A'.repeat(11) }, 'resource.profile.invalid_postcode'],
    ['missing city', { city: '' }, 'identity.user.field_required'],
  ])('refuses %s', async (_name, overrides, code) => {
    const { session } = await signedIn(`p${Math.random().toString(36).slice(2, 8)}@example.com`);
    const res = await call('POST', '/resource/profiles', session, { ...profile, ...overrides });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual([code]);
  });
});

it('keeps a cookie session free of API-key headers confusion', async () => {
  const { session } = await signedIn('mixed@example.com');
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/v2/barong/resource/users/me',
    headers: { cookie: session.cookie, 'x-auth-apikey': 'nope' },
  });
  expect(res.statusCode).toBe(200);
});

describe('anti-phishing phrase', () => {
  it('is set by the user and shown in every email sent to them', async () => {
    const { email, session } = await signedIn('phrase@example.com');
    const bad = await call('PUT', '/resource/users/anti_phishing', session, { phrase: '<script>' });
    expect(bad.statusCode).toBe(422);
    const ok = await call('PUT', '/resource/users/anti_phishing', session, { phrase: 'blue heron 42' });
    expect(ok.json()).toEqual({ anti_phishing: true });
    await call('POST', '/identity/users/password/generate_code', undefined, { email });
    const mail = (
      await t.db.pool.query('select body from mail_outbox where recipient = $1 order by id desc limit 1', [
        email,
      ])
    ).rows[0];
    expect(mail.body).toContain('Your anti-phishing phrase: blue heron 42');
  });
});
