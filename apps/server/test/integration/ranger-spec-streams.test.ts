import { beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { TRX, walletSuite } from '../support/wallet.ts';

/**
 * The spec's stream channels `gateway.deposit` and `favmarket` (docs/trading.md#stream) are served on `/private`, and a
 * name that is no stream is answered with an error frame naming it, never dropped in silence (issue 32 item 4).
 */
const w = walletSuite();
let base: string;

beforeAll(async () => {
  base = (await w.t.app.listen({ port: 0, host: '127.0.0.1' })).replace('http', 'ws');
});

/** A raw client that keeps every frame, parsed. */
async function connect(path: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(`${base}/api/v2/ranger/${path}`, { headers });
  const frames: Record<string, unknown>[] = [];
  ws.on('message', (d) => frames.push(JSON.parse(d.toString())));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return { ws, frames };
}

/**
 * A round trip on the client's socket: a name that is no stream, then its error frame. Frames go out in order on
 * one socket, so whatever the server sent it before has arrived by then.
 */
async function roundTrip(client: { ws: WebSocket; frames: Record<string, unknown>[] }) {
  const answers = () => client.frames.filter((f) => 'error' in f || 'success' in f).length;
  const before = answers();
  client.ws.send(JSON.stringify({ event: 'subscribe', streams: ['no.such.stream'] }));
  await vi.waitFor(() => expect(answers()).toBeGreaterThan(before));
}

const cookie = (who: { headers: Record<string, string> }) => ({ cookie: who.headers.cookie ?? '' });

describe('stream names the spec lists', () => {
  it('subscribes gateway.deposit and favmarket on /private', async () => {
    const who = await w.member('streams@ranger.test');
    const client = await connect('private/', cookie(who));
    client.ws.send(JSON.stringify({ event: 'subscribe', streams: ['gateway.deposit', 'favmarket'] }));
    await vi.waitFor(() => expect(client.frames).toHaveLength(1));
    expect(client.frames).toEqual([
      { success: { message: 'subscribed', streams: ['gateway.deposit', 'favmarket'] } },
    ]);
    client.ws.close();
  });

  it("sends the user's favourite markets on favmarket after each change, to that user only", async () => {
    const who = await w.member('fav@ranger.test');
    const other = await w.member('fav-other@ranger.test');
    const mine = await connect('private/?stream=favmarket', cookie(who));
    const theirs = await connect('private/?stream=favmarket', cookie(other));
    const anonymous = await connect('public/?stream=favmarket');
    for (const c of [mine, theirs, anonymous])
      await vi.waitFor(() => expect(c.frames.length).toBeGreaterThan(0));
    const put = (market_id: string, is_fav: number) =>
      w.t.app.inject({
        method: 'PUT',
        url: '/api/v2/peatio/account/fav_market',
        headers: who.headers,
        payload: { market_id, is_fav },
      });
    expect((await put('ethbtc', 1)).statusCode).toBe(200);
    expect((await put('btcusdt', 1)).statusCode).toBe(200);
    expect((await put('ethbtc', 0)).statusCode).toBe(200);
    const lists = () => mine.frames.filter((f) => 'favmarket' in f).map((f) => f.favmarket);
    await vi.waitFor(() => expect(lists()).toHaveLength(3));
    expect(lists()).toEqual([['ethbtc'], ['ethbtc', 'btcusdt'], ['btcusdt']]);
    // A refused change (unknown market) publishes nothing: the next accepted change's list is the next frame.
    expect((await put('nomarket', 1)).statusCode).toBe(422);
    expect((await put('ethbtc', 1)).statusCode).toBe(200);
    await vi.waitFor(() => expect(lists()).toHaveLength(4));
    expect(lists()[3]).toEqual(['btcusdt', 'ethbtc']);
    // Nothing went to the others: a round trip on their sockets comes back with no list before it.
    await Promise.all([roundTrip(theirs), roundTrip(anonymous)]);
    expect(theirs.frames.filter((f) => 'favmarket' in f)).toEqual([]);
    expect(anonymous.frames.filter((f) => 'favmarket' in f)).toEqual([]);
    for (const c of [mine, theirs, anonymous]) c.ws.close();
  });

  it("sends the receiver's deposit on gateway.deposit as on deposit, to the receiver only", async () => {
    const { who, beneficiary } = await w.withdrawer('gw-sender@ranger.test', 50n * TRX);
    const friend = await w.member('gw-friend@ranger.test');
    // The beneficiary of `withdrawer` is an outside address: give the sender one to the friend's address instead.
    const internal = await w.activeBeneficiary(who, await w.depositAddress(friend));
    const watching = await connect('private/?stream=gateway.deposit&stream=deposit', cookie(friend));
    const sender = await connect('private/?stream=gateway.deposit', cookie(who));
    for (const c of [watching, sender]) await vi.waitFor(() => expect(c.frames.length).toBeGreaterThan(0));
    expect(beneficiary).not.toBe(internal);
    const res = await w.withdraw(who, internal, '12.5');
    expect(res.statusCode).toBe(201);
    await vi.waitFor(() => {
      expect(watching.frames.some((f) => 'gateway.deposit' in f)).toBe(true);
      expect(watching.frames.some((f) => 'deposit' in f)).toBe(true);
    });
    const viaGateway = watching.frames.find((f) => 'gateway.deposit' in f)?.['gateway.deposit'];
    expect(viaGateway).toMatchObject({ currency: 'trx', amount: '12.5', transaction_type: 'internal' });
    expect(viaGateway).toEqual(watching.frames.find((f) => 'deposit' in f)?.deposit);
    // The sender's socket: a round trip comes back with no deposit frame before it.
    await roundTrip(sender);
    expect(sender.frames.filter((f) => 'gateway.deposit' in f)).toEqual([]);
    for (const c of [watching, sender]) c.ws.close();
  });
});

describe('names that are not served', () => {
  it('are answered with an error frame naming them, on /public and /private, by message and query string', async () => {
    const pub = await connect('public/');
    pub.ws.send(
      JSON.stringify({
        event: 'subscribe',
        streams: ['global.tickers', 'no.such.stream', 'gateway.deposit', 'favmarket', 42],
      }),
    );
    await vi.waitFor(() => expect(pub.frames).toHaveLength(3));
    expect(pub.frames).toEqual([
      { error: { message: 'unknown stream', streams: ['no.such.stream', '42'] } },
      {
        error: {
          message: 'private stream: connect to /private',
          streams: ['gateway.deposit', 'favmarket'],
        },
      },
      { success: { message: 'subscribed', streams: ['global.tickers'] } },
    ]);

    const who = await w.member('unknown@ranger.test');
    const priv = await connect('private/?stream=favmarket&stream=ethbtc.nonsense', cookie(who));
    await vi.waitFor(() => expect(priv.frames).toHaveLength(2));
    expect(priv.frames).toEqual([
      { error: { message: 'unknown stream', streams: ['ethbtc.nonsense'] } },
      { success: { message: 'subscribed', streams: ['favmarket'] } },
    ]);
    // An unsubscribe of an unknown name is answered the same way; the connection keeps serving.
    priv.ws.send(JSON.stringify({ event: 'unsubscribe', streams: ['gateway.deposits'] }));
    await vi.waitFor(() => expect(priv.frames).toHaveLength(4));
    expect(priv.frames.slice(2)).toEqual([
      { error: { message: 'unknown stream', streams: ['gateway.deposits'] } },
      { success: { message: 'unsubscribed', streams: ['favmarket'] } },
    ]);
    // A long name is echoed cut at 64 characters.
    priv.ws.send(JSON.stringify({ event: 'subscribe', streams: ['x'.repeat(500)] }));
    await vi.waitFor(() => expect(priv.frames).toHaveLength(6));
    expect(priv.frames[4]).toEqual({ error: { message: 'unknown stream', streams: ['x'.repeat(64)] } });
    for (const c of [pub, priv]) c.ws.close();
  });
});
