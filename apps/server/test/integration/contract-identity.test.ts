import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { BaseAppClient, baseAppUser, ISO_MS } from '../support/contract.ts';
import { activeUser, enableTwoFactor, forgetUsedTotp, lastCode, oathtoolCode } from '../support/identity.ts';

// Barong's wire contract as BaseApp 2.6 and plain Barong API clients use it (issue 16, items 2, 3, 7, 8, 10, 11, 13).
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('Barong sessions as BaseApp drives them', () => {
  it('item 3: logs in without 2FA with the emailed code sent as otp_code; missing_otp says which step is missing', async () => {
    const user = await activeUser(t, 'contract-login@example.com');
    const client = new BaseAppClient(t);
    const first = await client.barong('POST', '/identity/sessions', {
      email: user.email,
      password: user.password,
    });
    expect(first.statusCode).toBe(401);
    expect(first.json()).toMatchObject({
      errors: ['identity.session.missing_otp'],
      otp: false,
      second_step: 'email',
      code_length: 5,
      send_code: '/api/v2/barong/identity/sessions/resent_otp',
    });
    const entity = await client.signIn(user.email, user.password);
    expect(entity).toMatchObject({ email: user.email, state: 'active', otp: false });
    expect(typeof entity.csrf_token).toBe('string');
    expect((await client.barong('GET', '/resource/users/me')).statusCode).toBe(200);
  });

  it('item 3: a 2FA account is told second_step totp (no code is sent) and logs in with the TOTP as otp_code', async () => {
    const { email, password, client } = await baseAppUser(t, 'contract-2fa@example.com');
    const secret = await enableTwoFactor(t, { cookie: client.cookie, csrf: client.csrf }, email);
    const fresh = new BaseAppClient(t);
    const first = await fresh.barong('POST', '/identity/sessions', { email, password });
    expect(first.statusCode).toBe(401);
    expect(first.json()).toMatchObject({ otp: true, second_step: 'totp', code_length: 6 });
    expect(first.json().send_code).toBeUndefined();
    await forgetUsedTotp(t, email);
    const res = await fresh.barong('POST', '/identity/sessions', {
      email,
      password,
      otp_code: oathtoolCode(secret),
    });
    expect(res.statusCode).toBe(200);
  });

  // Issue 25 item 5 narrowed item 10: a form login is how a page of another site plants its session (login CSRF),
  // so the login takes JSON only; the other Barong routes still take forms.
  it('item 10: takes forms on the Barong routes, but the login as JSON only (415 for a form)', async () => {
    const user = await activeUser(t, 'contract-form@example.com');
    const client = new BaseAppClient(t);
    const sent = await client.barong(
      'POST',
      '/identity/sessions/resent_otp',
      { email: user.email, password: user.password },
      { form: true },
    );
    expect(sent.statusCode, sent.body).toBe(201);
    const code = await lastCode(t, user.email);
    const asForm = await client.barong(
      'POST',
      '/identity/sessions',
      { email: user.email, password: user.password, otp_code: code },
      { form: true },
    );
    expect(asForm.statusCode).toBe(415);
    expect(asForm.json()).toEqual({ errors: ['server.unsupported_media_type'] });
    const res = await client.barong('POST', '/identity/sessions', {
      email: user.email,
      password: user.password,
      otp_code: code,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().email).toBe(user.email);
  });

  it('item 2: logs out with the session cookie alone (no CSRF header), and the session is over', async () => {
    const { client } = await baseAppUser(t, 'contract-logout@example.com');
    const cookie = client.cookie;
    const out = await client.barong('DELETE', '/identity/sessions');
    expect(out.statusCode).toBe(200);
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/v2/barong/resource/users/me',
      headers: { cookie },
    });
    expect(me.statusCode).toBe(401);
  });

  it('item 2: answers a CSRF failure 401 with Barong codes (BaseApp resets its session on 401)', async () => {
    const { client } = await baseAppUser(t, 'contract-csrf@example.com');
    const missing = await client.barong('PUT', '/resource/users/me', { data: '{}' }, { csrf: false });
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toEqual({ errors: ['authz.missing_csrf_token'] });
    client.csrf = 'wrong';
    const wrong = await client.barong('PUT', '/resource/users/me', { data: '{}' }, { csrf: true });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ errors: ['authz.csrf_token_mismatch'] });
  });
});

describe('Barong resources BaseApp calls', () => {
  it('item 11: PUT /resource/users/me keeps data as a JSON text and answers the user', async () => {
    const { client } = await baseAppUser(t, 'contract-data@example.com');
    const data = JSON.stringify({ language: 'en' });
    const res = await client.barong('PUT', '/resource/users/me', { data }, { csrf: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email: 'contract-data@example.com', data });
    expect((await client.barong('GET', '/resource/users/me')).json().data).toBe(data);
    const bad = await client.barong('PUT', '/resource/users/me', { data: '{nope' }, { csrf: true });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({ errors: ['resource.user.invalid_data'] });
  });

  it('items 11 and 13: GET /resource/labels lists {key, value, scope, created_at, updated_at}, times as ...sssZ', async () => {
    const { client } = await baseAppUser(t, 'contract-labels@example.com');
    const labels = (await client.barong('GET', '/resource/labels')).json();
    expect(labels.length).toBeGreaterThan(0);
    for (const label of labels) {
      expect(Object.keys(label).sort()).toEqual(['created_at', 'key', 'scope', 'updated_at', 'value']);
      expect(label.created_at).toMatch(ISO_MS);
      expect(label.updated_at).toMatch(ISO_MS);
    }
    const me = (await client.barong('GET', '/resource/users/me')).json();
    expect(me.created_at).toMatch(ISO_MS);
    for (const label of me.labels) expect(label.created_at).toMatch(ISO_MS);
    for (const phone of me.phones) expect(phone.validated_at).toMatch(ISO_MS);
  });

  it("GET /resource/labels/{key} answers one of the user's labels; another key or user gets 404", async () => {
    const { client } = await baseAppUser(t, 'contract-label-key@example.com');
    const [first] = (await client.barong('GET', '/resource/labels')).json();
    const one = await client.barong('GET', `/resource/labels/${first.key}`);
    expect([one.statusCode, one.json()]).toEqual([200, first]);
    const missing = await client.barong('GET', '/resource/labels/no-such-label');
    expect([missing.statusCode, missing.json()]).toEqual([404, { errors: ['record.not_found'] }]);
    const anonymous = await t.app.inject({
      method: 'GET',
      url: `/api/v2/barong/resource/labels/${first.key}`,
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('GET /identity/configs gives password_min_entropy, which the weakest password the rule takes reaches', async () => {
    const configs = (await t.app.inject({ method: 'GET', url: '/api/v2/barong/identity/configs' })).json();
    expect(configs.password_min_entropy).toBe(24);
    const scored = await t.app.inject({
      method: 'POST',
      url: '/api/v2/barong/identity/password/validate',
      payload: { password: 'Aa#aaaaa' },
    });
    expect(scored.json().entropy).toBeGreaterThanOrEqual(configs.password_min_entropy);
  });

  it('item 11: POST /identity/password/validate answers the entropy as a number, without a session', async () => {
    const client = new BaseAppClient(t);
    const weak = await client.barong('POST', '/identity/password/validate', { password: 'abc' });
    const strong = await client.barong('POST', '/identity/password/validate', {
      password: 'Tr4ding-Desk#Nova',
    });
    expect(weak.statusCode).toBe(201);
    expect(typeof weak.json().entropy).toBe('number');
    expect(strong.json().entropy).toBeGreaterThan(weak.json().entropy);
  });

  it('item 7: the activity list has Barong fields, a Total header and pages', async () => {
    const { client } = await baseAppUser(t, 'contract-activity@example.com');
    await client.barong('DELETE', '/identity/sessions');
    await client.signIn('contract-activity@example.com', 'Tr4ding-Desk#Nova');
    const first = await client.barong('GET', '/resource/users/activity/all?limit=1&page=1');
    expect(first.statusCode).toBe(200);
    expect(Number(first.headers.total)).toBeGreaterThanOrEqual(3);
    const [item] = first.json();
    expect(typeof item.id).toBe('number');
    expect(item).toMatchObject({ topic: 'session', action: 'login', result: 'succeed' });
    expect(typeof item.user_ip).toBe('string');
    expect('data' in item).toBe(true);
    expect(item.created_at).toMatch(ISO_MS);
    const second = (await client.barong('GET', '/resource/users/activity/all?limit=1&page=2')).json();
    expect(second[0].id).toBeLessThan(item.id);
  });
});

describe('API keys as Barong clients switch them', () => {
  it('item 8: PATCH accepts state "disabled" (shown as inactive) and "active"', async () => {
    const { email, client } = await baseAppUser(t, 'contract-keys@example.com');
    const secret = await enableTwoFactor(t, { cookie: client.cookie, csrf: client.csrf }, email);
    const totp = async () => {
      await forgetUsedTotp(t, email);
      return oathtoolCode(secret);
    };
    const created = await client.barong(
      'POST',
      '/resource/api_keys',
      { algorithm: 'HS256', totp_code: await totp() },
      { csrf: true },
    );
    expect(created.statusCode).toBe(201);
    const kid = created.json().kid;
    const off = await client.barong(
      'PATCH',
      `/resource/api_keys/${kid}`,
      { state: 'disabled', totp_code: await totp() },
      { csrf: true },
    );
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().state).toBe('inactive');
    const on = await client.barong(
      'PATCH',
      `/resource/api_keys/${kid}`,
      { state: 'active', totp_code: await totp() },
      { csrf: true },
    );
    expect(on.json().state).toBe('active');
    const list = await client.barong('GET', '/resource/api_keys');
    expect(list.headers.total).toBe('1');
  });
});
