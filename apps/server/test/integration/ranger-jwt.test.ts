import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { insertKey } from '../../src/modules/api-keys/repository.ts';
import { encrypt } from '../../src/modules/identity/crypto.ts';
import { findUserById } from '../../src/modules/identity/users-repository.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { plainUser, sessionFor } from '../support/core.ts';

// Issue 30: Ranger's JWT authentication, with session JWTs this server issues (Barong's authz endpoint). Raw
// websocket clients: a forged token, an expired one, one of another user, one whose session ended.
let t: TestApp;
let http: string;
let ws: string;

interface Person {
  id: number;
  headers: { cookie: string; 'x-csrf-token': string };
}
let alice: Person;
let bob: Person;

async function person(email: string): Promise<Person> {
  const id = await plainUser(t.db.pool, email);
  return { id, headers: await sessionFor(t.deps.sessions, id) };
}

beforeAll(async () => {
  t = await createTestApp();
  http = await t.app.listen({ port: 0, host: '127.0.0.1' });
  ws = http.replace('http', 'ws');
  alice = await person('alice@jwt.test');
  bob = await person('bob@jwt.test');
});
afterAll(() => t.close());

/** A session JWT for `who` from the authz endpoint, as a gateway or a client gets it. */
async function jwtOf(who: Person): Promise<string> {
  const res = await fetch(`${http}/api/v2/barong/auth/api/v2/ranger/private`, { headers: who.headers });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { token: string; expires_at: number };
  expect(res.headers.get('authorization')).toBe(`Bearer ${body.token}`);
  return body.token;
}

/** Opens a raw socket; resolves with it and its frames, or with the HTTP status of a refused upgrade. */
function open(path: string, headers: Record<string, string> = {}) {
  return new Promise<
    | { socket: WebSocket; frames: Record<string, unknown>[]; closed: Promise<number> }
    | { refused: number; body: string }
  >((resolve, reject) => {
    const socket = new WebSocket(`${ws}${path}`, { headers });
    const frames: Record<string, unknown>[] = [];
    socket.on('message', (d) => frames.push(JSON.parse(d.toString())));
    const closed = new Promise<number>((r) => socket.on('close', (code) => r(code)));
    socket.once('open', () => resolve({ socket, frames, closed }));
    socket.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => {
        body += c.toString();
      });
      res.on('end', () => resolve({ refused: res.statusCode ?? 0, body }));
    });
    socket.once('error', (err) => {
      if (!String(err.message).includes('Unexpected server response')) reject(err);
    });
  });
}

/** Alice's order, so her private `order` stream has something. */
async function aliceOrders() {
  await t.deps.core.sequencer.submit({
    type: 'Credit',
    user: alice.id,
    currency: 'eth',
    amount: 10n ** 18n,
    kind: 'deposit',
  });
  const placed = await t.app.inject({
    method: 'POST',
    url: '/api/v2/peatio/market/orders',
    headers: alice.headers,
    payload: { market: 'ethbtc', side: 'sell', volume: '0.01', price: '0.07' },
  });
  expect(placed.statusCode).toBe(201);
}

const part = (token: string, i: number) =>
  JSON.parse(Buffer.from(token.split('.')[i] ?? '', 'base64url').toString());
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('the session JWT (Barong authz)', () => {
  it("is RS256 with Barong's claims, bound to the session, five minutes long; 401 without a session", async () => {
    const token = await jwtOf(alice);
    expect(part(token, 0)).toMatchObject({ alg: 'RS256', typ: 'JWT' });
    const claims = part(token, 1);
    const user = await findUserById(t.db.pool, String(alice.id));
    expect(claims).toMatchObject({
      sub: 'session',
      iss: 'barong',
      aud: ['peatio', 'barong'],
      uid: user?.uid,
      email: 'alice@jwt.test',
      level: 2,
      state: 'active',
    });
    expect(claims.exp - claims.iat).toBe(300);
    expect(claims.sid).toMatch(/^[0-9a-f]{64}$/);
    const anonymous = await fetch(`${http}/api/v2/barong/auth/api/v2/ranger/private`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('authorization')).toBeNull();
    // A change needs the CSRF token, as every session request.
    const noCsrf = await fetch(`${http}/api/v2/barong/auth/x`, {
      method: 'POST',
      headers: { cookie: alice.headers.cookie },
    });
    expect(noCsrf.status).toBe(401);
    const keys = (await (await fetch(`${http}/api/v2/barong/identity/jwks`)).json()) as {
      keys: { kty: string; alg: string; kid: string }[];
    };
    expect(keys.keys).toEqual([
      expect.objectContaining({ kty: 'RSA', alg: 'RS256', kid: part(token, 0).kid }),
    ]);
  });
});

describe('Ranger /private with Authorization: Bearer', () => {
  it("serves the token's user their own streams", async () => {
    const client = await open('/api/v2/ranger/private/?stream=order', {
      authorization: `Bearer ${await jwtOf(alice)}`,
    });
    if (!('socket' in client)) throw new Error(`refused ${client.refused}`);
    await aliceOrders();
    await vi.waitFor(() => expect(client.frames.some((f) => 'order' in f)).toBe(true), { timeout: 5000 });
    client.socket.close();
  });

  it('refuses a forged, expired, unsigned or differently signed token before the upgrade (401)', async () => {
    const good = await jwtOf(alice);
    const bobUid = (await findUserById(t.db.pool, String(bob.id)))?.uid;
    const [head, , signature] = good.split('.');
    const forged = `${head}.${b64({ ...part(good, 1), uid: bobUid })}.${signature}`;
    const aliceUser = await findUserById(t.db.pool, String(alice.id));
    if (!aliceUser) throw new Error('no alice');
    const sid = part(good, 1).sid as string;
    const expired = (await t.deps.jwt.issue(aliceUser, { sid }, Date.now() - 301_000)).token;
    const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${part(good, 1) && good.split('.')[1]}.`;
    // HS256 "signed" with the public key as the secret: the classic algorithm confusion.
    const publicPem = JSON.stringify((await t.deps.jwt.jwks()).keys[0]);
    const hsHead = b64({ alg: 'HS256', typ: 'JWT' });
    const hsBody = good.split('.')[1];
    const confused = `${hsHead}.${hsBody}.${createHmac('sha256', publicPem).update(`${hsHead}.${hsBody}`).digest('base64url')}`;
    // RS256 by a key that is not ours.
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const otherSigned = `${head}.${hsBody}.${sign('RSA-SHA256', Buffer.from(`${head}.${hsBody}`), other.privateKey).toString('base64url')}`;
    for (const [name, token] of Object.entries({
      forged,
      expired,
      unsigned,
      confused,
      otherSigned,
      junk: 'abc',
    })) {
      const res = await open('/api/v2/ranger/private/?stream=order', { authorization: `Bearer ${token}` });
      expect('refused' in res && res.refused, name).toBe(401);
      if ('refused' in res) expect(JSON.parse(res.body), name).toEqual({ errors: ['jwt.decode_and_verify'] });
    }
  });

  it('refuses a token whose session ended (logout) and one whose API key was switched off', async () => {
    const carol = await person('carol@jwt.test');
    const token = await jwtOf(carol);
    const logout = await fetch(`${http}/api/v2/barong/identity/sessions`, {
      method: 'DELETE',
      headers: { cookie: carol.headers.cookie },
    });
    expect(logout.status).toBe(200);
    const res = await open('/api/v2/ranger/private/', { authorization: `Bearer ${token}` });
    expect('refused' in res && res.refused).toBe(401);

    // An API key's JWT: good while the key is active.
    const dave = await plainUser(t.db.pool, 'dave@jwt.test');
    await t.db.pool.query('update users set otp = true where id = $1', [dave]);
    const secret = 'b'.repeat(64);
    await insertKey(t.db.pool, String(dave), 'jwt0key0kid00001', encrypt(t.deps.keys, secret));
    const nonce = String(Date.now());
    const minted = await fetch(`${http}/api/v2/barong/auth/ranger`, {
      headers: {
        'x-auth-apikey': 'jwt0key0kid00001',
        'x-auth-nonce': nonce,
        'x-auth-signature': createHmac('sha256', secret).update(`${nonce}jwt0key0kid00001`).digest('hex'),
      },
    });
    expect(minted.status).toBe(200);
    const keyToken = ((await minted.json()) as { token: string }).token;
    expect(part(keyToken, 1).kid).toBe('jwt0key0kid00001');
    const before = await open('/api/v2/ranger/private/', { authorization: `Bearer ${keyToken}` });
    expect('socket' in before).toBe(true);
    if ('socket' in before) before.socket.close();
    await t.db.pool.query(`update api_keys set state = 'inactive' where kid = 'jwt0key0kid00001'`);
    const after = await open('/api/v2/ranger/private/', { authorization: `Bearer ${keyToken}` });
    expect('refused' in after && after.refused).toBe(401);
  });
});

describe('the jwt message', () => {
  it('authenticates /private as its first message; a forged one is refused and the socket closed', async () => {
    const client = await open('/api/v2/ranger/private/');
    if (!('socket' in client)) throw new Error('refused');
    client.socket.send(JSON.stringify({ event: 'jwt', jwt: `Bearer ${await jwtOf(alice)}` }));
    client.socket.send(JSON.stringify({ event: 'subscribe', streams: ['order'] }));
    await vi.waitFor(() =>
      expect(client.frames).toEqual([
        { success: { message: 'authenticated' } },
        { success: { message: 'subscribed', streams: ['order'] } },
      ]),
    );
    await aliceOrders();
    await vi.waitFor(() => expect(client.frames.some((f) => 'order' in f)).toBe(true), { timeout: 5000 });
    client.socket.close();

    const good = await jwtOf(bob);
    const forged = `${good.split('.')[0]}.${b64({ ...part(good, 1), level: 3 })}.${good.split('.')[2]}`;
    const bad = await open('/api/v2/ranger/private/');
    if (!('socket' in bad)) throw new Error('refused');
    bad.socket.send(JSON.stringify({ jwt: `Bearer ${forged}` }));
    expect(await bad.closed).toBe(4001);
    expect(bad.frames).toEqual([{ error: { message: 'jwt.decode_and_verify' } }]);
  });

  it('leaves /private without any credentials closed once the wait is over', async () => {
    const client = await open('/api/v2/ranger/private/?stream=order');
    if (!('socket' in client)) throw new Error('refused');
    expect(await client.closed).toBe(4001);
    expect(client.frames).toEqual([{ error: { message: 'authz.invalid_session' } }]);
  });

  it("lets /public take private streams after a valid token, never another user's after it", async () => {
    const client = await open('/api/v2/ranger/public/');
    if (!('socket' in client)) throw new Error('refused');
    client.socket.send(JSON.stringify({ event: 'subscribe', streams: ['order'] }));
    await vi.waitFor(() => expect(client.frames.length).toBe(2));
    expect(client.frames[0]).toEqual({
      error: { message: 'private stream: connect to /private', streams: ['order'] },
    });
    client.socket.send(JSON.stringify({ event: 'jwt', jwt: await jwtOf(alice) }));
    await vi.waitFor(() => expect(client.frames[2]).toEqual({ success: { message: 'authenticated' } }));
    // Bob's valid token on Alice's connection: refused, and the connection stays Alice's.
    client.socket.send(JSON.stringify({ event: 'jwt', jwt: `Bearer ${await jwtOf(bob)}` }));
    await vi.waitFor(() => expect(client.frames[3]).toEqual({ error: { message: 'jwt.decode_and_verify' } }));
    client.socket.send(JSON.stringify({ event: 'subscribe', streams: ['order'] }));
    await vi.waitFor(() =>
      expect(client.frames[4]).toEqual({ success: { message: 'subscribed', streams: ['order'] } }),
    );
    await aliceOrders();
    await vi.waitFor(() => expect(client.frames.some((f) => 'order' in f)).toBe(true), { timeout: 5000 });
    client.socket.close();
  });
});

describe('the token lifetime', () => {
  // Last in the file: it moves the app's clock five minutes on.
  it('lasts five minutes on the app clock: accepted a second before its end, refused after it', async () => {
    const token = await jwtOf(alice);
    const { iat, exp } = part(token, 1) as { iat: number; exp: number };
    t.clock.set(exp * 1000 - 1000);
    await expect(t.deps.jwt.verify(token)).resolves.toMatchObject({ iat, exp });
    const open1 = await open('/api/v2/ranger/private/?stream=order', { authorization: `Bearer ${token}` });
    if (!('socket' in open1)) throw new Error(`refused ${open1.refused}`);
    open1.socket.close();
    t.clock.advance(2000);
    await expect(t.deps.jwt.verify(token)).rejects.toThrow();
    const late = await open('/api/v2/ranger/private/?stream=order', { authorization: `Bearer ${token}` });
    expect('refused' in late && late.refused).toBe(401);
  });
});
