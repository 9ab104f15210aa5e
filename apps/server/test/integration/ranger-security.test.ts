import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { insertKey } from '../../src/modules/api-keys/repository.ts';
import { encrypt } from '../../src/modules/identity/crypto.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { plainUser, sessionFor } from '../support/core.ts';

/**
 * The private streams of one user reach nobody else: not a raw client without a cookie naming the internal
 * routing key, not another user's session, not a page of a foreign origin (security probe, item 1 and 4).
 */
let t: TestApp;
let base: string;
let victim: { id: number; headers: Record<string, string> };
let attacker: { id: number; headers: Record<string, string> };

async function user(email: string) {
  const id = await plainUser(t.db.pool, email);
  return { id, headers: await sessionFor(t.deps.sessions, id) };
}

/** A connected raw client and every frame it receives, parsed. */
async function connect(path: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(`${base}${path}`, { headers });
  const frames: Record<string, unknown>[] = [];
  ws.on('message', (d) => frames.push(JSON.parse(d.toString())));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return { ws, frames };
}

/** Every way a client might spell another user's routing key, old and new. */
const spellings = (id: number) =>
  ['order', 'trade', 'balances', 'deposit', 'withdraw', 'deposit_address'].flatMap((name) => [
    `u${id}.${name}`,
    `U${id}.${name}`,
    `u0${id}.${name}`,
    `user:${id}:${name}`,
    `user:${id}:${name} `,
    ` u${id}.${name}`,
  ]);

beforeAll(async () => {
  t = await createTestApp();
  base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('http', 'ws');
  victim = await user('victim@ranger.test');
  attacker = await user('attacker@ranger.test');
});
afterAll(() => t.close());

type Client = { ws: WebSocket; frames: Record<string, unknown>[] };

/**
 * A round trip on `client`'s socket: a subscription it is refused, then its answer. Frames go out in order on one
 * socket, so whatever the server sent it before the answer has arrived by then (a closed socket gets nothing more).
 */
async function roundTrip(client: Client) {
  if (client.ws.readyState !== WebSocket.OPEN) return;
  const answers = () => client.frames.filter((f) => 'success' in f || 'error' in f).length;
  const before = answers();
  client.ws.send(JSON.stringify({ event: 'subscribe', streams: ['no.such.stream'] }));
  await vi.waitFor(() => expect(answers()).toBeGreaterThan(before), { timeout: 5000 });
}

/**
 * Gives the victim a deposit and an order, waits until the victim's own `order` stream has it, then for a round
 * trip on each of the `others`' sockets: a frame of the same flush sent to them has arrived by then.
 */
async function victimActivity(own: Client, others: (Client | undefined)[]) {
  await t.deps.core.sequencer.submit({
    type: 'Credit',
    user: victim.id,
    currency: 'eth',
    amount: 10n ** 18n,
    kind: 'deposit',
  });
  const placed = await t.app.inject({
    method: 'POST',
    url: '/api/v2/peatio/market/orders',
    headers: victim.headers,
    payload: { market: 'ethbtc', side: 'sell', volume: '0.5', price: '0.07' },
  });
  expect(placed.statusCode).toBe(201);
  await vi.waitFor(() => expect(own.frames.some((f) => 'order' in f)).toBe(true), { timeout: 5000 });
  // Frames of one batch go out in one flush: one that went to another client was sent before this round trip.
  for (const other of others) if (other) await roundTrip(other);
}

/** Frames other than subscription answers: anything a leak would deliver. */
const dataFrames = (frames: Record<string, unknown>[]) =>
  frames.filter((f) => !('success' in f) && !('error' in f) && !Object.keys(f).some((k) => k.includes('.')));

describe('private streams', () => {
  it('never reach a client without a cookie, by query string or subscribe message, whatever the spelling', async () => {
    const own = await connect('/api/v2/ranger/private/?stream=order&stream=balances', {
      cookie: victim.headers.cookie ?? '',
    });
    const query = spellings(victim.id)
      .map((s) => `stream=${encodeURIComponent(s)}`)
      .join('&');
    const byQuery = await connect(`/api/v2/ranger/public/?${query}`);
    const byMessage = await connect('/api/v2/ranger/public/');
    byMessage.ws.send(JSON.stringify({ event: 'subscribe', streams: spellings(victim.id) }));
    const noCookiePrivate = await connect(`/api/v2/ranger/private/?${query}`).catch(() => undefined);
    await vi.waitFor(() => expect(byMessage.frames.some((f) => 'success' in f)).toBe(true));
    expect(byMessage.frames.find((f) => 'success' in f)).toEqual({
      success: { message: 'subscribed', streams: [] },
    });

    await victimActivity(own, [byQuery, byMessage, noCookiePrivate]);
    expect(dataFrames(byQuery.frames)).toEqual([]);
    expect(dataFrames(byMessage.frames)).toEqual([]);
    expect(dataFrames(noCookiePrivate?.frames ?? [])).toEqual([]);
    for (const c of [own, byQuery, byMessage, noCookiePrivate]) c?.ws.close();
  });

  it("never reach another user's session on /private, which gets only its own", async () => {
    const own = await connect('/api/v2/ranger/private/?stream=order&stream=balances', {
      cookie: victim.headers.cookie ?? '',
    });
    const other = await connect(
      `/api/v2/ranger/private/?${spellings(victim.id)
        .map((s) => `stream=${encodeURIComponent(s)}`)
        .join('&')}`,
      { cookie: attacker.headers.cookie ?? '' },
    );
    other.ws.send(JSON.stringify({ event: 'subscribe', streams: [...spellings(victim.id), 'order'] }));
    // Two answers: the query string's (none of its names is the attacker's to have), then the message's.
    const answers = () => other.frames.filter((f) => 'success' in f);
    await vi.waitFor(() => expect(answers()).toHaveLength(2));
    expect(answers()).toEqual([
      { success: { message: 'subscribed', streams: [] } },
      { success: { message: 'subscribed', streams: ['order'] } },
    ]);

    await victimActivity(own, [other]);
    expect(dataFrames(other.frames)).toEqual([]);
    own.ws.close();
    other.ws.close();
  });

  it('refuse a cookie upgrade from a page of another origin, and serve our own origin and API keys', async () => {
    const cookie = victim.headers.cookie ?? '';
    const foreign = new WebSocket(`${base}/api/v2/ranger/private/?stream=order`, {
      headers: { cookie, origin: 'http://evil.example' },
    });
    const refusal = await new Promise<{ status?: number; body: string }>((resolve) => {
      foreign.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => {
          body += c.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode, body }));
      });
      foreign.once('open', () => resolve({ body: 'opened' }));
    });
    expect(refusal.status).toBe(403);
    expect(JSON.parse(refusal.body)).toEqual({ errors: ['authz.origin_not_allowed'] });

    const host = base.replace('ws://', '');
    const sameOrigin = await connect('/api/v2/ranger/private/?stream=order', {
      cookie,
      origin: `http://${host}`,
    });
    const configured = await connect('/api/v2/ranger/private/?stream=order', {
      cookie,
      origin: new URL(t.deps.config.publicUrl).origin,
    });

    // A program signs with its API key: no cookie, so the page origin does not matter.
    await t.db.pool.query('update users set otp = true where id = $1', [victim.id]);
    const secret = 'a'.repeat(64);
    await insertKey(t.db.pool, String(victim.id), 'ranger0key0kid01', encrypt(t.deps.keys, secret));
    const nonce = String(Date.now());
    const signed = await connect('/api/v2/ranger/private/?stream=order', {
      origin: 'http://evil.example',
      'x-auth-apikey': 'ranger0key0kid01',
      'x-auth-nonce': nonce,
      'x-auth-signature': createHmac('sha256', secret).update(`${nonce}ranger0key0kid01`).digest('hex'),
    });

    await victimActivity(sameOrigin, []);
    await vi.waitFor(() => {
      for (const c of [sameOrigin, configured, signed]) expect(c.frames.some((f) => 'order' in f)).toBe(true);
    });
    for (const c of [sameOrigin, configured, signed]) c.ws.close();
  });
});

describe('the query string', () => {
  const answer = async (client: { frames: Record<string, unknown>[] }) => {
    await vi.waitFor(() => expect(client.frames.some((f) => 'success' in f)).toBe(true));
    return (client.frames.find((f) => 'success' in f) as { success: { streams: string[] } }).success.streams;
  };

  it('checks every comma-separated name on its own, on /public and on /private', async () => {
    const own = await connect('/api/v2/ranger/private/?stream=order', {
      cookie: victim.headers.cookie ?? '',
    });
    const names = ['global.tickers', ...spellings(victim.id), 'order', 'ethbtc.trades,', ',balances'];
    const query = `stream=${names.map(encodeURIComponent).join(',')}`;
    const pub = await connect(`/api/v2/ranger/public/?${query}`);
    const other = await connect(`/api/v2/ranger/private/?${query}`, {
      cookie: attacker.headers.cookie ?? '',
    });
    expect(await answer(pub)).toEqual(['global.tickers', 'ethbtc.trades']);
    // The attacker's own order and balances streams, never the victim's.
    expect(await answer(other)).toEqual(['global.tickers', 'order', 'ethbtc.trades', 'balances']);
    await victimActivity(own, [pub, other]);
    expect(dataFrames(pub.frames)).toEqual([]);
    expect(dataFrames(other.frames)).toEqual([]);
    for (const c of [own, pub, other]) c.ws.close();
  });

  it('subscribes at most as many streams as a subscribe message, however the names are spread', async () => {
    const markets = Array.from({ length: 300 }, (_, i) => `m${i}.trades`);
    const oneParameter = await connect(`/api/v2/ranger/public/?stream=${markets.join(',')}`);
    const pairs = Array.from({ length: 150 }, (_, i) => `stream=${markets[2 * i]},${markets[2 * i + 1]}`);
    const manyParameters = await connect(`/api/v2/ranger/public/?${pairs.join('&')}`);
    for (const client of [oneParameter, manyParameters]) {
      expect(await answer(client)).toEqual(markets.slice(0, 200));
      expect(t.deps.hub.subscriberCount('m199.trades')).toBeGreaterThanOrEqual(1);
      client.ws.send(JSON.stringify({ event: 'subscribe', streams: ['global.tickers'] }));
      await vi.waitFor(() => expect(client.frames.filter((f) => 'success' in f)).toHaveLength(2));
      const last = client.frames.filter((f) => 'success' in f)[1] as { success: { streams: string[] } };
      expect(last.success.streams).toHaveLength(200);
    }
    expect(t.deps.hub.subscriberCount('m200.trades')).toBe(0);
    expect(t.deps.hub.subscriberCount('global.tickers')).toBe(0);
    for (const c of [oneParameter, manyParameters]) c.ws.close();
  });

  it('answers a message that is JSON but not an object with an error, and keeps serving', async () => {
    const client = await connect('/api/v2/ranger/public/');
    for (const text of ['null', '1', '"subscribe"', '[]']) client.ws.send(text);
    await vi.waitFor(() => expect(client.frames).toHaveLength(4));
    expect(client.frames).toEqual(Array(4).fill({ error: { message: 'unsupported event' } }));
    client.ws.send(JSON.stringify({ event: 'subscribe', streams: ['global.tickers'] }));
    await vi.waitFor(() => expect(client.frames).toHaveLength(5));
    client.ws.close();
  });
});
