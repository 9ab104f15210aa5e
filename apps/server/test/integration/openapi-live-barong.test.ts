import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { multipart } from '../../src/adapters/kyc/sumsub.ts';
import { twilioSignature } from '../../src/adapters/sms/signing.ts';
import type { RecordedResponse } from '../../src/http/response-recorder.ts';
import type { TestApp } from '../support/app.ts';
import {
  type BarongSession,
  barongCall,
  forgetUsedTotp,
  lastCode,
  loginWithEmailCode,
  nextIp,
  oathtoolCode,
  registration,
  signedInUser,
} from '../support/identity.ts';
import { JPEG, kycHarness, PROFILE } from '../support/kyc.ts';
import { type ApiName, checkAnswers, documents, recordingApp, uncovered } from '../support/openapi-live.ts';

// Issue 30: every Barong and Ranger operation of the documents answered for real, and every answer (successes
// and refusals) checked against the document with ajv.
let t: TestApp;
let base: string;
let answers: RecordedResponse[];
const call = barongCall(() => t);
const kyc = kycHarness(() => ({ t, base }));
const ok = (res: { statusCode: number; body: string }, status = 200) =>
  expect(res.statusCode, res.body).toBe(status);
/** Lets every code sent so far be sent again (the resend limit is a minute). */
const ageCodes = () => t.db.pool.query(`update one_time_codes set created_at = now() - interval '2 minutes'`);

beforeAll(async () => {
  ({ t, answers } = await recordingApp());
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

describe('the Barong document, answered live', () => {
  it('public routes, registration and verification (the spec and BASEAPP_COMPAT)', async () => {
    for (const path of ['encryption_key', 'ping', 'time', 'version', 'configs'])
      ok(await call('GET', `/identity/${path}`));
    ok(await call('POST', '/identity/password/validate', undefined, { password: 'Tr4ding-Desk#Nova' }), 201);
    ok(
      await call('POST', '/identity/inquiry', undefined, {
        name: 'Ann',
        email: 'ann@contacts.test',
        subject: 'Hello',
        message: 'A question about fees.',
      }),
      201,
    );

    // The spec's registration, the change of number, the codes again, the email alone, then both codes.
    const body = registration('spec@livedocs.test');
    const registered = await call('POST', '/identity/users', undefined, body);
    ok(registered, 201);
    const changed = await call('POST', '/identity/users/edit/phone_number', undefined, {
      email: 'spec@livedocs.test',
      country_code: '91',
      phone_number: '9123456780',
      registration_token: registered.json().registration_token,
    });
    ok(changed);
    await ageCodes();
    ok(await call('POST', '/identity/users/send_otp/phone', undefined, { email: 'spec@livedocs.test' }), 201);
    await ageCodes();
    ok(
      await call('POST', '/identity/users/email/generate_code', undefined, { email: 'spec@livedocs.test' }),
      201,
    );
    ok(
      await call('POST', '/identity/users/email/confirm_code', undefined, {
        email: 'spec@livedocs.test',
        code: await lastCode(t, 'spec@livedocs.test'),
      }),
      201,
    );
    await ageCodes();
    ok(await call('POST', '/identity/users/send_otp/email', undefined, { email: 'spec@livedocs.test' }), 201);
    ok(
      await call('POST', '/identity/users/verify_account', undefined, {
        email: 'spec@livedocs.test',
        email_otp: await lastCode(t, 'spec@livedocs.test'),
        phone_otp: await lastCode(t, changed.json().phone_number),
      }),
    );

    // BaseApp's: email and password, the mailed token.
    ok(
      await call('POST', '/identity/users', undefined, {
        email: 'compat@livedocs.test',
        password: body.password,
      }),
      201,
    );
    ok(
      await call('POST', '/identity/sessions', undefined, {
        email: 'compat@livedocs.test',
        password: body.password,
      }),
    );
    const token = await lastCode(t, 'compat@livedocs.test');
    ok(await call('POST', '/identity/users/email/confirm_code', undefined, { token }), 201);
    // A refusal is checked against the document too.
    const refused = await call('POST', '/identity/users/email/confirm_code', undefined, { token });
    expect(refused.statusCode).toBe(422);
  });

  it('login, state, password reset and logout', async () => {
    const user = await signedInUser(t, 'login@livedocs.test');
    const credentials = { email: user.email, password: user.password };
    ok(await call('POST', '/identity', undefined, credentials), 201);
    await ageCodes();
    ok(await call('POST', '/identity/sessions/resent_otp', undefined, credentials), 201);
    const first = await call('POST', '/identity/sessions', undefined, credentials);
    expect(first.statusCode).toBe(401);
    ok(await call('POST', '/identity/users/password/generate_code', undefined, { email: user.email }), 201);
    const reset = await lastCode(t, user.email);
    ok(await call('GET', `/identity/sessions/verify_access_token?access_token=${reset}`));
    ok(
      await call('POST', '/identity/users/password/confirm_code', undefined, {
        reset_password_token: reset,
        password: 'An0ther#Strong-Pass',
        confirm_password: 'An0ther#Strong-Pass',
      }),
      201,
    );
    const other = await signedInUser(t, 'logout@livedocs.test');
    ok(await call('DELETE', '/identity/sessions', other.session));
  });

  it('account closure: asked and cancelled with a balance left; closed at once with nothing left', async () => {
    const holder = await signedInUser(t, 'closing@livedocs.test');
    const id = (await t.db.pool.query('select id from users where email = $1', [holder.email])).rows[0].id;
    await t.deps.core.sequencer.submit({
      type: 'Credit',
      user: Number(id),
      currency: 'trx',
      amount: 5_000_000n,
      kind: 'deposit',
    });
    ok(await call('POST', '/resource/users/closure', holder.session, { password: holder.password }), 201);
    ok(await call('GET', '/resource/users/closure', holder.session));
    ok(await call('DELETE', '/resource/users/closure', holder.session));
    const user = await signedInUser(t, 'closure@livedocs.test');
    ok(await call('POST', '/resource/users/closure', user.session, { password: user.password }), 201);
    expect((await call('GET', '/resource/users/closure', user.session)).statusCode).toBe(401);
  });

  it('the resource routes, two-factor and API keys', async () => {
    const user = await signedInUser(t, 'resource@livedocs.test');
    const s = user.session;
    ok(await call('GET', '/resource/users/me', s));
    ok(await call('PUT', '/resource/users/me', s, { data: '{"language":"en"}' }));
    ok(await call('GET', '/resource/labels', s));
    ok(await call('GET', '/resource/phones', s));
    ok(await call('GET', '/resource/profiles/me', s));
    ok(await call('GET', '/resource/labels/email', s));
    ok(await call('GET', '/resource/users/activity/all', s));
    // "Your data" (issue 31, part 5): the archive, then the refusal of a second one the same day.
    ok(await call('GET', '/resource/users/export', s));
    expect((await call('GET', '/resource/users/export', s)).statusCode).toBe(429);
    // Account closure (issue 31, part 4): nothing under way, so nothing to cancel.
    ok(await call('GET', '/resource/users/closure', s));
    ok(await call('DELETE', '/resource/users/closure', s), 404);
    // Devices (issue 31): the list, one other session ended, an unknown one refused, then all the others.
    const second = await loginWithEmailCode(t, user.email, user.password);
    const devices = await call('GET', '/resource/sessions', s);
    ok(devices);
    const otherId = (devices.json() as { id: string; current: boolean }[]).find((d) => !d.current)?.id;
    ok(await call('DELETE', `/resource/sessions/${otherId}`, s), 204);
    expect((await call('DELETE', `/resource/sessions/${otherId}`, s)).statusCode).toBe(404);
    expect((await call('GET', '/resource/users/me', second)).statusCode).toBe(401);
    ok(await call('DELETE', '/resource/sessions', s));
    ok(await call('POST', '/resource/generate_code', s), 201);
    ok(await call('PUT', '/resource/users/anti_phishing', s, { phrase: 'blue heron' }));
    ok(await call('POST', '/resource/profiles', s, PROFILE), 201);
    ok(await call('PUT', '/resource/profiles', s, PROFILE));

    const qr = await call('POST', '/resource/otp/generate_qrcode', s);
    ok(qr, 201);
    const secret = new URL(qr.json().data.url).searchParams.get('secret') ?? '';
    ok(await call('POST', '/resource/otp/enable', s, { code: oathtoolCode(secret) }), 201);
    await forgetUsedTotp(t, user.email);
    ok(await call('POST', '/resource/otp/verify', s, { code: oathtoolCode(secret) }), 201);
    await forgetUsedTotp(t, user.email);
    ok(await call('POST', '/resource/phones/verify_otp_code', s, { otp_code: oathtoolCode(secret) }), 201);
    ok(await call('POST', '/resource/phones', s, { phone_number: '819012345678', country: 'JP' }), 201);
    await ageCodes();
    ok(await call('POST', '/resource/phones/send_code', s, { phone_number: '819012345678' }), 201);
    ok(
      await call('POST', '/resource/phones/verify', s, {
        phone_number: '819012345678',
        verification_code: await lastCode(t, '819012345678'),
      }),
      201,
    );

    await forgetUsedTotp(t, user.email);
    const created = await call('POST', '/resource/api_keys', s, {
      algorithm: 'HS256',
      totp_code: oathtoolCode(secret),
    });
    ok(created, 201);
    const { kid, secret: keySecret } = created.json();
    ok(await call('GET', '/resource/api_keys?ordering=desc', s));
    await forgetUsedTotp(t, user.email);
    ok(
      await call('PATCH', `/resource/api_keys/${kid}`, s, {
        state: 'active',
        totp_code: oathtoolCode(secret),
        // The signed call below comes from 127.0.0.1 (inject's address).
        allowed_ips: ['127.0.0.1', '2001:db8::/32'],
      }),
    );
    // The login IP whitelist (issue 31, part 2): these calls come from 10.2.0.0/16 (nextIp).
    await forgetUsedTotp(t, user.email);
    const entry = await call('POST', '/resource/ip_whitelist', s, {
      ip: '10.2.0.0/16',
      totp_code: oathtoolCode(secret),
    });
    ok(entry, 201);
    ok(await call('GET', '/resource/ip_whitelist', s));
    await forgetUsedTotp(t, user.email);
    ok(
      await call('DELETE', `/resource/ip_whitelist/${entry.json().id}?totp_code=${oathtoolCode(secret)}`, s),
      204,
    );

    // The session JWT by every method Barong's authz takes, by session and by API key.
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const)
      ok(await call(method, '/auth/api/v2/peatio/account/balances', s));
    const nonce = String(Date.now());
    const signed = await t.app.inject({
      method: 'GET',
      url: '/api/v2/barong/auth/ranger',
      headers: {
        'x-auth-apikey': kid,
        'x-auth-nonce': nonce,
        'x-auth-signature': createHmac('sha256', keySecret).update(`${nonce}${kid}`).digest('hex'),
      },
    });
    ok(signed);
    ok(await call('GET', '/identity/jwks'));

    await forgetUsedTotp(t, user.email);
    ok(await call('DELETE', `/resource/api_keys/${kid}?totp_code=${oathtoolCode(secret)}`, s), 204);
    await forgetUsedTotp(t, user.email);
    ok(await call('POST', '/resource/otp/disable', s, { code: oathtoolCode(secret) }), 201);
    ok(
      await call('PUT', '/resource/users/password', s, {
        old_password: user.password,
        new_password: 'Brand-New#Pass2',
        confirm_password: 'Brand-New#Pass2',
      }),
      201,
    );
  });

  it('identity verification through the simulated provider', async () => {
    const u = await kyc.signedIn('kyc@livedocs.test');
    ok(await call('POST', '/resource/profiles', u.session, PROFILE), 201);
    const token = await call('GET', '/resource/sumsub/token', u.session);
    ok(token);
    ok(
      await call('POST', '/resource/sumsub/applicant_id', u.session, {
        applicant_id: token.json().applicant_id,
      }),
      201,
    );
    ok(await call('GET', '/resource/kyc/review', u.session));
    ok(
      await kyc.upload(u.session, [
        { name: 'doc_type', value: 'passport' },
        { name: 'upload[]', fileName: 'front.jpeg', contentType: 'image/jpeg', value: JPEG },
      ]),
      201,
    );
    ok(await call('GET', '/resource/documents', u.session));
    const started = await call('POST', '/resource/profiles/net_verify/initiate', u.session, {
      redirectUrl: '/settings',
    });
    ok(started, 201);
    const { scan_ref, redirectUrl } = started.json();
    const access = new URL(redirectUrl, base).searchParams.get('access_token') ?? '';
    expect((await kyc.submitOnPage(access)).status).toBe(303);
    ok(await call('POST', '/resource/profiles/net_verify/success', u.session, { scan_ref }));
    ok(await call('POST', '/resource/profiles/net_verify/kyc', u.session, { scan_ref }));
    ok(await call('GET', `/resource/profiles/net_verify/kyc?scan_ref=${scan_ref}`, u.session));
    ok(await kyc.webhook(kyc.event(u.uid, 'applicantPending')));
  });

  it('a business account: its company, the register extract and the submission (issue 31, part 3)', async () => {
    const { session } = await signedInUser(t, 'biz@livedocs.test', { account_type: 'business' });
    // A refusal is checked against the document too.
    expect((await call('GET', '/resource/company', session)).statusCode).toBe(404);
    const company = {
      name: 'Live Docs GmbH',
      registration_number: 'HRB 4242',
      country: 'DEU',
      address: 'Alexanderplatz 1, Berlin',
      representatives: [
        { name: 'Lena Vogel', role: 'director', ownership: null },
        { name: 'Otto Kranz', role: 'ubo', ownership: '51.5' },
      ],
    };
    ok(await call('PUT', '/resource/company', session, company));
    ok(await call('GET', '/resource/company', session));
    const form = multipart([
      { name: 'doc_type', value: 'register_extract' },
      { name: 'issued_on', value: new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10) },
      { name: 'file', fileName: 'extract.jpeg', contentType: 'image/jpeg', value: JPEG },
    ]);
    ok(
      await t.app.inject({
        method: 'POST',
        url: '/api/v2/barong/resource/company/documents',
        headers: { cookie: session.cookie, 'x-csrf-token': session.csrf, 'content-type': form.contentType },
        payload: form.body,
        remoteAddress: nextIp(),
      }),
      201,
    );
    ok(await call('POST', '/resource/company/submit', session));
  });

  it('an SMS status callback, signed as Twilio signs, and one that is not', async () => {
    const url = `${base}/api/v2/barong/public/sms/twilio/status`;
    const form = new URLSearchParams({ MessageSid: `SM${'d'.repeat(32)}`, MessageStatus: 'delivered' });
    const token = t.deps.smsSimulator?.credentials.authToken ?? '';
    const post = (signature: string) =>
      fetch(url, { method: 'POST', headers: { 'x-twilio-signature': signature }, body: form });
    expect((await post(twilioSignature(token, url, form))).status).toBe(200);
    expect((await post('forged')).status).toBe(401);
  });

  it('the developer outbox and the documents themselves', async () => {
    ok(await t.app.inject({ method: 'GET', url: '/api/v2/barong/dev/outbox?limit=1' }));
    for (const api of ['barong', 'ranger'] as const)
      ok(await t.app.inject({ method: 'GET', url: `/api/v2/${api}/swagger` }));
  });

  it('the captcha challenge (ALTCHA)', async () => {
    const altcha = await recordingApp({ CAPTCHA_TYPE: 'altcha' });
    try {
      const res = await altcha.t.app.inject({
        method: 'GET',
        url: '/api/v2/barong/identity/captcha/challenge',
      });
      ok(res);
      expect(checkAnswers(await documents(altcha.t), altcha.answers)).toEqual([]);
      answers.push(...altcha.answers);
    } finally {
      await altcha.t.close();
    }
  });

  it('Ranger: both endpoints upgrade', async () => {
    const session = (await signedInUser(t, 'ranger@livedocs.test')).session as BarongSession;
    for (const [path, headers] of [
      ['/api/v2/ranger/public', {}],
      ['/api/v2/ranger/private', { cookie: session.cookie }],
    ] as const) {
      const socket = new WebSocket(`${base.replace('http', 'ws')}${path}?stream=order`, { headers });
      const first = await new Promise<string>((resolve, reject) => {
        socket.once('message', (d) => resolve(d.toString()));
        socket.once('error', reject);
      });
      expect(first, path).toMatch(/"success"|"error"/);
      socket.close();
    }
  });

  it('every answer matches the documents, and every operation was answered with a success', async () => {
    const docs = await documents(t);
    expect(checkAnswers(docs, answers)).toEqual([]);
    const apis: ApiName[] = ['barong', 'ranger'];
    // The websocket upgrades (101) never pass through a reply: the test above opened both.
    expect(uncovered(docs, answers, apis, ['ranger GET /public', 'ranger GET /private'])).toEqual([]);
    expect(nextIp()).toBeTruthy();
  });
});
