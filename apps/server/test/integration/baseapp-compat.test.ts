import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailedToken } from '../../src/modules/identity/mailed-token.ts';
import { HttpClient, lastMail, type Served, serveOverSocket, wireOutbox } from '../support/http-client.ts';
import { registration } from '../support/identity.ts';
import { externalAddress, member } from '../support/wallet.ts';

// Issue 30, item 2: BASEAPP_COMPAT serves BaseApp 2.6's flows; without it the spec's stay (and are refused
// BaseApp's way). Every call goes over a socket, as BaseApp's axios or a Barong client sends it.
const PASSWORD = 'Tr4ding-Desk#Nova';

let compat: Served;
beforeAll(async () => {
  compat = await serveOverSocket({ BASEAPP_COMPAT: 'true' });
});
afterAll(() => compat?.t.close());

/** Registers with email and password only and follows the mailed link, as BaseApp does. */
async function confirmedCompatUser(email: string) {
  const client = new HttpClient(compat.base);
  const signUp = await client.barong('POST', '/identity/users', { email, password: PASSWORD });
  expect(signUp.status, signUp.text).toBe(201);
  const token = (await lastMail(compat, email)).secret;
  const confirmed = await client.barong('POST', '/identity/users/email/confirm_code', { token });
  expect(confirmed.status, confirmed.text).toBe(201);
  return client;
}

/** BaseApp's sign-in with the automatically mailed 6-digit code in `otp_code`. */
async function signIn(client: HttpClient, served: Served, email: string) {
  const first = await client.barong('POST', '/identity/sessions', { email, password: PASSWORD });
  expect(first.status).toBe(401);
  const code = (await lastMail(served, email)).secret;
  const res = await client.barong('POST', '/identity/sessions', {
    email,
    password: PASSWORD,
    otp_code: code,
  });
  expect(res.status, res.text).toBe(200);
  client.csrf = res.json.csrf_token;
  return res.json;
}

describe('BASEAPP_COMPAT on: sign-up with email and password, confirmation by the mailed token', () => {
  it('registers a pending level-0 account without a session and mails BaseApp a confirmation link', async () => {
    const client = new HttpClient(compat.base);
    const res = await client.barong('POST', '/identity/users', {
      email: 'ada@compat.test',
      password: PASSWORD,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ email: 'ada@compat.test', level: 0, state: 'pending', otp: false });
    expect(res.headers.getSetCookie()).toEqual([]);
    const mail = await lastMail(compat, 'ada@compat.test');
    expect(mail.template).toBe('account_confirmation');
    expect(mail.body).toContain(`${compat.base}/accounts/confirmation?confirmation_token=`);
    expect(mail.secret).toMatch(/^\d+\.\d+\.[0-9a-f]{64}$/);

    // The spec's rules still hold for what is given; a taken email is refused.
    const weak = await client.barong('POST', '/identity/users', {
      email: 'bo@compat.test',
      password: 'short',
    });
    expect(weak.status).toBe(422);
    expect(weak.json.errors).toEqual(['password.pattern']);
    const taken = await client.barong('POST', '/identity/users', {
      email: 'ada@compat.test',
      password: PASSWORD,
    });
    expect(taken.status).toBe(422);
    expect(taken.json.errors).toEqual(['identity.user.email_taken']);

    // A login before confirming says `pending` (BaseApp then shows its verification screen), with no session.
    const early = await client.barong('POST', '/identity/sessions', {
      email: 'ada@compat.test',
      password: PASSWORD,
    });
    expect(early.status).toBe(200);
    expect(early.json.state).toBe('pending');
    expect(early.headers.getSetCookie()).toEqual([]);
  });

  it('confirms with the token once; forged, expired and malformed tokens are refused', async () => {
    const client = new HttpClient(compat.base);
    await client.barong('POST', '/identity/users', { email: 'cy@compat.test', password: PASSWORD });
    const token = (await lastMail(compat, 'cy@compat.test')).secret ?? '';
    const [id = '', expires = '', hash = ''] = token.split('.');
    const forged = `${id}.${expires}.${hash.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'))}`;
    const expired = mailedToken(compat.t.deps.keys, 'email_confirm', id, Date.now() - 25 * 3600_000);
    // A removal token of the same subject is no confirmation.
    const otherPurpose = mailedToken(compat.t.deps.keys, 'beneficiary_removal', id, Date.now());
    for (const bad of [forged, expired, otherPurpose]) {
      const res = await client.barong('POST', '/identity/users/email/confirm_code', { token: bad });
      expect(res.status, bad).toBe(422);
      expect(res.json.errors).toEqual(['identity.user.invalid_token']);
    }
    const malformed = await client.barong('POST', '/identity/users/email/confirm_code', { token: 'abc' });
    expect(malformed.status).toBe(422);
    expect(malformed.json.errors).toEqual(['identity.user.invalid_token']);

    const ok = await client.barong('POST', '/identity/users/email/confirm_code', { token });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.json).toMatchObject({ email: 'cy@compat.test', state: 'active', level: 1 });
    expect(ok.json.labels).toEqual([expect.objectContaining({ key: 'email', value: 'verified' })]);
    expect(ok.headers.getSetCookie()).toEqual([]);
    const again = await client.barong('POST', '/identity/users/email/confirm_code', { token });
    expect(again.status).toBe(422);
    expect(again.json.errors).toEqual(['identity.user.active_or_doesnt_exist']);
  });

  it('mails the link again on generate_code, at most once a minute', async () => {
    const client = new HttpClient(compat.base);
    await client.barong('POST', '/identity/users', { email: 'di@compat.test', password: PASSWORD });
    await lastMail(compat, 'di@compat.test');
    const again = await client.barong('POST', '/identity/users/email/generate_code', {
      email: 'di@compat.test',
    });
    expect(again.status).toBe(201);
    // Within the minute: the same answer, nothing more sent.
    expect(await wireOutbox(compat.base, 'di@compat.test', 5)).toHaveLength(1);
    // Unknown emails get the same answer.
    const unknown = await client.barong('POST', '/identity/users/email/generate_code', {
      email: 'no@compat.test',
    });
    expect(unknown.status).toBe(201);
  });

  it("still takes the spec's registration (the web app's) with its codes", async () => {
    const client = new HttpClient(compat.base);
    const res = await client.barong('POST', '/identity/users', registration('ed@compat.test'));
    expect(res.status, res.text).toBe(201);
    expect(res.json.registration_token).toBeTruthy();
    expect((await lastMail(compat, 'ed@compat.test')).template).toBe('code.register');
  });
});

describe('BASEAPP_COMPAT on: the login second step is a 6-digit emailed code sent by itself', () => {
  it('sends the code with the missing_otp answer; BaseApp posts it as otp_code', async () => {
    const client = await confirmedCompatUser('fa@compat.test');
    const first = await client.barong('POST', '/identity/sessions', {
      email: 'fa@compat.test',
      password: PASSWORD,
    });
    expect(first.status).toBe(401);
    expect(first.json).toMatchObject({
      errors: ['identity.session.missing_otp'],
      otp: false,
      second_step: 'email',
      code_length: 6,
      code_sent: true,
    });
    const mail = await lastMail(compat, 'fa@compat.test');
    expect(mail.template).toBe('code.login');
    expect(mail.secret).toMatch(/^\d{6}$/);

    // Within the minute another password-only try sends nothing new: the first code stands.
    const second = await client.barong('POST', '/identity/sessions', {
      email: 'fa@compat.test',
      password: PASSWORD,
    });
    expect(second.json.code_sent).toBe(false);
    expect((await wireOutbox(compat.base, 'fa@compat.test', 1))[0]?.secret).toBeNull();

    const wrong = await client.barong('POST', '/identity/sessions', {
      email: 'fa@compat.test',
      password: PASSWORD,
      otp_code: mail.secret === '000000' ? '111111' : '000000',
    });
    expect(wrong.status).toBe(403);
    expect(wrong.json.errors).toEqual(['identity.session.invalid_code']);
    // A wrong password sends nothing and says nothing about the code.
    const badPassword = await client.barong('POST', '/identity/sessions', {
      email: 'fa@compat.test',
      password: 'Wrong-pass#1',
    });
    expect(badPassword.status).toBe(401);
    expect(badPassword.json.errors).toEqual(['identity.session.invalid_params']);

    const ok = await client.barong('POST', '/identity/sessions', {
      email: 'fa@compat.test',
      password: PASSWORD,
      otp_code: mail.secret,
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json).toMatchObject({ email: 'fa@compat.test', state: 'active', level: 1 });
    client.csrf = ok.json.csrf_token;
    const me = await client.barong('GET', '/resource/users/me');
    expect(me.status).toBe(200);
    // The code was used up with the login.
    const replay = await new HttpClient(compat.base).barong('POST', '/identity/sessions', {
      email: 'fa@compat.test',
      password: PASSWORD,
      otp_code: mail.secret,
    });
    expect(replay.status).toBe(403);
  });
});

describe('BASEAPP_COMPAT on: the rest of the profile before level 2', () => {
  it('raises a confirmed account to level 2 once its phone is verified and its profile saved', async () => {
    const client = await confirmedCompatUser('gi@compat.test');
    await signIn(client, compat, 'gi@compat.test');
    const phone = '919876543210';
    expect((await client.barong('POST', '/resource/phones', { phone_number: `+${phone}` })).status).toBe(201);
    const sms = await lastMail(compat, phone);
    const verified = await client.barong('POST', '/resource/phones/verify', {
      phone_number: `+${phone}`,
      verification_code: sms.secret,
    });
    expect(verified.status, verified.text).toBe(201);
    expect((await client.barong('GET', '/resource/users/me')).json.level).toBe(1);
    // BaseApp's identity form: no gender, and `confirm`.
    const profile = await client.barong('POST', '/resource/profiles', {
      first_name: 'Gina',
      last_name: 'Rossi',
      dob: '1990-04-01',
      address: 'Via Roma 1',
      postcode: '00100',
      city: 'Roma',
      country: 'IT',
      confirm: true,
    });
    expect(profile.status, profile.text).toBe(201);
    expect((await client.barong('GET', '/resource/users/me')).json.level).toBe(2);
  });

  it('keeps level 1 with a profile but no verified phone', async () => {
    const client = await confirmedCompatUser('ha@compat.test');
    await signIn(client, compat, 'ha@compat.test');
    const profile = await client.barong('POST', '/resource/profiles', {
      first_name: 'Hana',
      last_name: 'Ito',
      dob: '1991-05-02',
      address: '1-1 Chiyoda',
      postcode: '1000001',
      city: 'Tokyo',
      country: 'JP',
    });
    expect(profile.status, profile.text).toBe(201);
    expect((await client.barong('GET', '/resource/users/me')).json.level).toBe(1);
  });
});

describe('BASEAPP_COMPAT on: a beneficiary delete without a code is confirmed by a mailed link', () => {
  it('mails the owner, keeps the address until the link is followed, then removes it once', async () => {
    const owner = await member(compat.t, 'iv@compat.test');
    const client = new HttpClient(compat.base);
    client.cookie = owner.headers.cookie ?? '';
    client.csrf = owner.headers['x-csrf-token'] ?? '';
    const created = await client.peatio('POST', '/account/beneficiaries', {
      name: 'Cold wallet',
      currency: 'btc',
      data: { address: externalAddress('btc') },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.json.id as number;

    // Nobody else's session reaches it, and nothing is mailed for it.
    const stranger = await member(compat.t, 'ja@compat.test');
    const other = new HttpClient(compat.base);
    other.cookie = stranger.headers.cookie ?? '';
    other.csrf = stranger.headers['x-csrf-token'] ?? '';
    const foreign = await other.peatio('DELETE', `/account/beneficiaries/${id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.json.errors).toEqual(['record.not_found']);
    expect(await wireOutbox(compat.base, 'ja@compat.test', 5)).toEqual([]);
    const anonymous = await new HttpClient(compat.base).peatio('DELETE', `/account/beneficiaries/${id}`);
    expect(anonymous.status).toBe(401);

    // BaseApp's delete: no body, no code.
    const asked = await client.peatio('DELETE', `/account/beneficiaries/${id}`);
    expect(asked.status, asked.text).toBe(202);
    expect((await client.peatio('GET', `/account/beneficiaries/${id}`)).status).toBe(200);
    const mail = await lastMail(compat, 'iv@compat.test');
    expect(mail.template).toBe('beneficiary_removal');
    const link = `${compat.base}/api/v2/peatio/public/beneficiaries/removal?token=`;
    expect(mail.body).toContain(link);
    const token = mail.secret ?? '';

    // Opening the link (a mail scanner does) changes nothing: a page with the address and a button.
    const page = await fetch(`${link}${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    // Not the API's no-referrer: under it the button's form post would carry `Origin: null` and be refused.
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    const html = await page.text();
    expect(html).toContain('Cold wallet');
    expect(html).toContain('method="post"');
    expect((await client.peatio('GET', `/account/beneficiaries/${id}`)).status).toBe(200);

    // A forged or expired token removes nothing.
    const anon = new HttpClient(compat.base);
    const forged = `${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`;
    const expired = mailedToken(
      compat.t.deps.keys,
      'beneficiary_removal',
      String(id),
      Date.now() - 2 * 3600_000,
    );
    for (const bad of [forged, expired]) {
      const res = await anon.peatio('POST', '/public/beneficiaries/removal', { token: bad });
      expect(res.status).toBe(422);
      expect(res.json.errors).toEqual(['account.beneficiary.invalid_removal_token']);
    }
    // A page of another site may not post the form.
    const crossSite = await anon.peatio(
      'POST',
      '/public/beneficiaries/removal',
      { token },
      { origin: 'https://evil.example' },
    );
    expect(crossSite.status).toBe(403);
    expect((await client.peatio('GET', `/account/beneficiaries/${id}`)).status).toBe(200);

    // The page's button: a form post, answered with a page.
    const removed = await anon.peatio(
      'POST',
      '/public/beneficiaries/removal',
      `token=${encodeURIComponent(token)}`,
      {
        'content-type': 'application/x-www-form-urlencoded',
      },
    );
    expect(removed.status, removed.text).toBe(200);
    expect(removed.text).toContain('Withdrawal address removed');
    expect((await client.peatio('GET', `/account/beneficiaries/${id}`)).status).toBe(404);
    const twice = await anon.peatio('POST', '/public/beneficiaries/removal', { token });
    expect(twice.status).toBe(422);
  });
});
