import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { signature } from '../../src/modules/api-keys/hmac.ts';
import { insertKey } from '../../src/modules/api-keys/repository.ts';
import { encrypt } from '../../src/modules/identity/crypto.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { plainUser } from '../support/core.ts';
import {
  type BarongSession,
  enableTwoFactor,
  forgetUsedTotp,
  oathtoolCode,
  signedInUser,
} from '../support/identity.ts';

// Issue 31, part 2: each API key may be restricted to addresses and CIDR ranges (`allowed_ips`), over raw HTTP.
// No TRUST_PROXY here: a request's address is its socket's, whatever X-Forwarded-For says.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const ME = '/api/v2/barong/resource/users/me';
const SETTINGS_FROM = '192.0.2.50';

let nonceTick = 0;
const nextNonce = () => {
  nonceTick = Math.max(Date.now(), nonceTick + 1);
  return String(nonceTick);
};

const signedCall = (kid: string, secret: string, from: string, headers: Record<string, string> = {}) => {
  const nonce = nextNonce();
  return t.app.inject({
    method: 'GET',
    url: ME,
    remoteAddress: from,
    headers: {
      'x-auth-apikey': kid,
      'x-auth-nonce': nonce,
      'x-auth-signature': signature(secret, nonce, kid),
      ...headers,
    },
  });
};

const call = (
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  session: BarongSession,
  payload?: Record<string, unknown>,
) =>
  t.app.inject({
    method,
    url: `/api/v2/barong${url}`,
    remoteAddress: SETTINGS_FROM,
    headers: { cookie: session.cookie, 'x-csrf-token': session.csrf },
    ...(payload ? { payload } : {}),
  });

async function keyOwner(email: string) {
  const user = await signedInUser(t, email);
  const secret = await enableTwoFactor(t, user.session, email);
  const code = async () => {
    await forgetUsedTotp(t, email);
    return oathtoolCode(secret);
  };
  return { ...user, code };
}

describe('API keys restricted to addresses (allowed_ips)', () => {
  it('creates a key with its list in canonical form; a bad entry is refused before the code is used', async () => {
    const owner = await keyOwner('allowed-create@example.com');
    const totp = await owner.code();
    const bad = await call('POST', '/resource/api_keys', owner.session, {
      totp_code: totp,
      allowed_ips: ['203.0.113.0/24', 'example.com'],
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({ errors: ['resource.ip_whitelist.invalid_ip'] });
    const tooMany = await call('POST', '/resource/api_keys', owner.session, {
      totp_code: totp,
      allowed_ips: Array.from({ length: 21 }, (_, i) => `203.0.113.${i}`),
    });
    expect(tooMany.json()).toEqual({ errors: ['resource.ip_whitelist.too_many'] });
    // The same code still works: neither refusal used it.
    const created = await call('POST', '/resource/api_keys', owner.session, {
      totp_code: totp,
      allowed_ips: ['::ffff:203.0.113.9/120', '2001:DB8::/32'],
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().allowed_ips).toEqual(['203.0.113.0/24', '2001:db8::/32']);
    const listed = await call('GET', '/resource/api_keys', owner.session);
    expect(listed.json()[0].allowed_ips).toEqual(['203.0.113.0/24', '2001:db8::/32']);
  });

  it('answers a signed request from outside the list 403 authz.ip_not_allowed, whatever spelling or header it tries', async () => {
    const owner = await keyOwner('allowed-use@example.com');
    const created = await call('POST', '/resource/api_keys', owner.session, {
      totp_code: await owner.code(),
      allowed_ips: ['203.0.113.0/24'],
    });
    const { kid, secret } = created.json() as { kid: string; secret: string };

    for (const from of ['203.0.113.7', '::ffff:203.0.113.7', '::ffff:cb00:7108']) {
      const res = await signedCall(kid, secret, from);
      expect(res.statusCode, `${from}: ${res.body}`).toBe(200);
    }
    for (const from of ['198.51.100.7', '::ffff:198.51.100.7', '::203.0.113.7', '2001:db8::1']) {
      const res = await signedCall(kid, secret, from);
      expect(res.statusCode, from).toBe(403);
      expect(res.json()).toEqual({ errors: ['authz.ip_not_allowed'] });
    }
    // X-Forwarded-For naming a listed address, without TRUST_PROXY: ignored.
    const forwarded = await signedCall(kid, secret, '198.51.100.7', { 'x-forwarded-for': '203.0.113.7' });
    expect(forwarded.statusCode).toBe(403);
    expect(forwarded.json()).toEqual({ errors: ['authz.ip_not_allowed'] });
    // A wrong signature from outside is refused as a wrong signature: the list is told to no one without the key.
    const unsigned = await signedCall(kid, 'not-the-secret', '198.51.100.7');
    expect(unsigned.json()).toEqual({ errors: ['authz.invalid_signature'] });

    // Six refusals within a minute: one entry in the owner's log, not six.
    const log = (
      await call('GET', '/resource/users/activity/ip_whitelist?limit=100', owner.session)
    ).json() as {
      action: string;
      result: string;
      data: string;
    }[];
    const refusals = log.filter((e) => e.action === 'api_key.ip_not_allowed');
    expect(refusals).toHaveLength(1);
    expect(refusals[0]?.result).toBe('failed');
    expect(JSON.parse(refusals[0]?.data ?? '{}')).toEqual({ kid });
  });

  it("changes the list with a fresh code (PATCH), at once; another user's key is not found", async () => {
    const owner = await keyOwner('allowed-patch@example.com');
    const mallory = await keyOwner('allowed-mallory@example.com');
    const created = await call('POST', '/resource/api_keys', owner.session, {
      totp_code: await owner.code(),
    });
    const { kid, secret } = created.json() as { kid: string; secret: string };
    expect(created.json().allowed_ips).toEqual([]);
    expect((await signedCall(kid, secret, '198.51.100.9')).statusCode).toBe(200);

    const theirs = await call('PATCH', `/resource/api_keys/${kid}`, mallory.session, {
      totp_code: await mallory.code(),
      allowed_ips: ['198.51.100.66'],
    });
    expect(theirs.statusCode).toBe(404);

    const totp = await owner.code();
    const set = await call('PATCH', `/resource/api_keys/${kid}`, owner.session, {
      totp_code: totp,
      allowed_ips: ['203.0.113.0/24'],
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ state: 'active', allowed_ips: ['203.0.113.0/24'] });
    const replay = await call('PATCH', `/resource/api_keys/${kid}`, owner.session, {
      totp_code: totp,
      allowed_ips: [],
    });
    expect(replay.statusCode).toBe(422);
    expect(replay.json()).toEqual({ errors: ['resource.api_key.invalid_totp'] });
    expect((await signedCall(kid, secret, '198.51.100.9')).json()).toEqual({
      errors: ['authz.ip_not_allowed'],
    });

    const cleared = await call('PATCH', `/resource/api_keys/${kid}`, owner.session, {
      totp_code: await owner.code(),
      allowed_ips: [],
    });
    expect(cleared.json().allowed_ips).toEqual([]);
    expect((await signedCall(kid, secret, '198.51.100.9')).statusCode).toBe(200);
    const nothing = await call('PATCH', `/resource/api_keys/${kid}`, owner.session, {
      totp_code: await owner.code(),
    });
    expect(nothing.json()).toEqual({ errors: ['resource.api_key.invalid_state'] });
  });

  it('refuses the login whitelist routes to an API key (session only)', async () => {
    const owner = await keyOwner('allowed-route@example.com');
    const created = await call('POST', '/resource/api_keys', owner.session, {
      totp_code: await owner.code(),
    });
    const { kid, secret } = created.json() as { kid: string; secret: string };
    const nonce = nextNonce();
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v2/barong/resource/ip_whitelist',
      headers: {
        'x-auth-apikey': kid,
        'x-auth-nonce': nonce,
        'x-auth-signature': signature(secret, nonce, kid),
      },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ errors: ['authz.session_required'] });
  });
});

describe("an address-restricted key's Ranger JWT", () => {
  it('is taken only from an allowed address: a token minted there is refused elsewhere, on the upgrade and as a message', async () => {
    // Behind a trusted loopback proxy, so one machine can speak from several addresses (X-Forwarded-For).
    const proxied = await createTestApp({}, { TRUST_PROXY: 'loopback' });
    try {
      const http = await proxied.app.listen({ port: 0, host: '127.0.0.1' });
      const user = await plainUser(proxied.db.pool, 'allowed-jwt@example.com');
      await proxied.db.pool.query('update users set otp = true where id = $1', [user]);
      const secret = 'c'.repeat(64);
      const kid = 'jwt0ipsrestrict1';
      await insertKey(proxied.db.pool, String(user), kid, encrypt(proxied.deps.keys, secret), [
        '203.0.113.0/24',
      ]);
      const from = (ip: string) => ({ 'x-forwarded-for': ip });
      const nonce = nextNonce();
      const minted = await fetch(`${http}/api/v2/barong/auth/ranger`, {
        headers: {
          ...from('203.0.113.5'),
          'x-auth-apikey': kid,
          'x-auth-nonce': nonce,
          'x-auth-signature': signature(secret, nonce, kid),
        },
      });
      expect(minted.status).toBe(200);
      const token = ((await minted.json()) as { token: string }).token;
      const ws = http.replace('http', 'ws');
      const upgrade = (headers: Record<string, string>) =>
        new Promise<{ status: number; socket?: WebSocket }>((resolve, reject) => {
          const socket = new WebSocket(`${ws}/api/v2/ranger/private/`, { headers });
          socket.once('open', () => resolve({ status: 101, socket }));
          socket.once('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0 }));
          socket.once('error', (err) => {
            if (!String(err.message).includes('Unexpected server response')) reject(err);
          });
        });
      // From another address of the allowed range: served.
      const inside = await upgrade({ authorization: `Bearer ${token}`, ...from('203.0.113.9') });
      expect(inside.status).toBe(101);
      inside.socket?.close();
      // From anywhere else, the same token gets no socket.
      const outside = await upgrade({ authorization: `Bearer ${token}`, ...from('198.51.100.7') });
      expect(outside.status).toBe(401);
      // Nor as the first message of a connection without credentials.
      const bare = await upgrade(from('198.51.100.7'));
      expect(bare.status).toBe(101);
      const socket = bare.socket as WebSocket;
      const answer = new Promise<string>((resolve) => socket.once('message', (d) => resolve(d.toString())));
      const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
      socket.send(JSON.stringify({ event: 'jwt', jwt: `Bearer ${token}` }));
      expect(JSON.parse(await answer)).toEqual({ error: { message: 'jwt.decode_and_verify' } });
      expect(await closed).toBe(4001);
    } finally {
      await proxied.close();
    }
  });
});
