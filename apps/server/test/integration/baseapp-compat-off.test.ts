import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailedToken } from '../../src/modules/identity/mailed-token.ts';
import { HttpClient, lastMail, type Served, serveOverSocket, wireOutbox } from '../support/http-client.ts';
import { registration } from '../support/identity.ts';
import { externalAddress, member } from '../support/wallet.ts';

// Issue 30, item 2: without BASEAPP_COMPAT (the default) the spec's flows stay, and BaseApp's are refused. Every
// call goes over a socket, as BaseApp's axios or a Barong client sends it (the setting on: baseapp-compat.test.ts).
const PASSWORD = 'Tr4ding-Desk#Nova';

let spec: Served;
beforeAll(async () => {
  spec = await serveOverSocket({});
});
afterAll(() => spec?.t.close());

describe('BASEAPP_COMPAT off (the default): the spec, and BaseApp refused', () => {
  it('refuses a sign-up with email and password only', async () => {
    const res = await new HttpClient(spec.base).barong('POST', '/identity/users', {
      email: 'ka@specmode.test',
      password: PASSWORD,
    });
    expect(res.status).toBe(422);
    expect(res.json.errors).toContain('identity.user.field_required');
    expect(await wireOutbox(spec.base, 'ka@specmode.test', 5)).toEqual([]);
  });

  it('refuses a confirmation token, even one this server could have signed', async () => {
    const token = mailedToken(spec.t.deps.keys, 'email_confirm', '1', Date.now());
    const res = await new HttpClient(spec.base).barong('POST', '/identity/users/email/confirm_code', {
      token,
    });
    expect(res.status).toBe(422);
    expect(res.json.errors).toEqual(['identity.user.field_required', 'identity.user.missing_email_otp']);
  });

  it('answers missing_otp with the 5-digit step and sends nothing by itself', async () => {
    const client = new HttpClient(spec.base);
    const body = registration('la@specmode.test');
    expect((await client.barong('POST', '/identity/users', body)).status).toBe(201);
    const phone = body.phone_number.replace(/^0+/, '91');
    const verify = await client.barong('POST', '/identity/users/verify_account', {
      email: 'la@specmode.test',
      email_otp: (await lastMail(spec, 'la@specmode.test')).secret,
      phone_otp: (await lastMail(spec, phone)).secret,
    });
    expect(verify.status, verify.text).toBe(200);
    const res = await client.barong('POST', '/identity/sessions', {
      email: 'la@specmode.test',
      password: body.password,
    });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ code_length: 5, code_sent: false, second_step: 'email' });
    expect((await wireOutbox(spec.base, 'la@specmode.test', 1))[0]?.template).toBe('code.register');
  });

  it('refuses a beneficiary delete without the authenticator code, and has no removal link', async () => {
    const owner = await member(spec.t, 'ma@specmode.test');
    const client = new HttpClient(spec.base);
    client.cookie = owner.headers.cookie ?? '';
    client.csrf = owner.headers['x-csrf-token'] ?? '';
    const created = await client.peatio('POST', '/account/beneficiaries', {
      name: 'Cold wallet',
      currency: 'btc',
      data: { address: externalAddress('btc') },
    });
    const res = await client.peatio('DELETE', `/account/beneficiaries/${created.json.id}`);
    expect(res.status).toBe(422);
    expect(res.json.errors).toEqual(['resource.otp.missing_code']);
    expect(await wireOutbox(spec.base, 'ma@specmode.test', 5)).toHaveLength(1); // the activation pin only
    const link = await new HttpClient(spec.base).peatio('POST', '/public/beneficiaries/removal', {
      token: 'x',
    });
    expect(link.status).toBe(404);
  });
});
