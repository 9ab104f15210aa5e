import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { createTestApp, type TestApp } from '../support/app.ts';
import { type BaseAppClient, baseAppUser } from '../support/contract.ts';

// Ranger's streams as BaseApp 2.6 and Peatio websocket clients read them (issue 16, item 1 and the streams).
let t: TestApp;
let base: string;
let maker: BaseAppClient;
let taker: BaseAppClient;

beforeAll(async () => {
  t = await createTestApp();
  base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('http', 'ws');
  const credit = (user: number, currency: string, amount: bigint) =>
    t.deps.core.sequencer.submit({ type: 'Credit', user, currency, amount, kind: 'deposit' });
  const a = await baseAppUser(t, 'stream-maker@example.com');
  const b = await baseAppUser(t, 'stream-taker@example.com');
  await credit(a.id, 'btc', 10n ** 8n);
  await credit(b.id, 'usdt', 100_000n * 1_000_000n);
  maker = a.client;
  taker = b.client;
});
afterAll(() => t.close());

/** A raw ranger connection that keeps every frame, parsed, and waits for the first one matching. */
async function ranger(path: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(`${base}/api/v2/ranger/${path}`, { headers });
  const frames: Record<string, unknown>[] = [];
  const waiters: {
    match: (f: Record<string, unknown>) => boolean;
    done: (f: Record<string, unknown>) => void;
  }[] = [];
  ws.on('message', (data) => {
    const frame = JSON.parse(data.toString());
    frames.push(frame);
    for (const w of [...waiters]) {
      if (!w.match(frame)) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.done(frame);
    }
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  /** The first frame (already received or to come) that carries `stream`, and passes `test`. */
  const next = (stream: string, test: (payload: never) => boolean = () => true, ms = 5000) => {
    const match = (f: Record<string, unknown>) => stream in f && test(f[stream] as never);
    const seen = frames.find(match);
    if (seen) return Promise.resolve(seen[stream] as never);
    return new Promise<never>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${stream} frame in ${ms} ms`)), ms);
      waiters.push({
        match,
        done: (f) => {
          clearTimeout(timer);
          resolve(f[stream] as never);
        },
      });
    });
  };
  return { ws, frames, next };
}

const place = (client: BaseAppClient, body: Record<string, unknown>) =>
  client.peatio('POST', '/market/orders', { market: 'btcusdt', ord_type: 'limit', ...body }, { csrf: true });

describe('public and private streams of one trade', () => {
  it('books, trades, k-line (numbers), flat global.tickers and private order, trade and balances', async () => {
    const streams = [
      'global.tickers',
      'btcusdt.update',
      'btcusdt.ob-inc',
      'btcusdt.trades',
      'btcusdt.kline-1m',
    ];
    const pub = await ranger(`public/?${streams.map((s) => `stream=${s}`).join('&')}`);
    const snap = await ranger('public/?stream=btcusdt.ob-snap');
    const priv = await ranger('private/?stream=order&stream=trade&stream=balances', { cookie: maker.cookie });

    // Snapshots on subscribe: {asks, bids, sequence}.
    const first = await snap.next('btcusdt.ob-snap');
    expect(first).toMatchObject({ asks: [], bids: [], sequence: expect.any(Number) });
    const update = await pub.next('btcusdt.update');
    expect(update).toMatchObject({ asks: [], bids: [] });
    const start = (await pub.next('btcusdt.ob-snap')) as { sequence: number };

    expect((await place(maker, { side: 'sell', volume: '0.5', price: '66000' })).statusCode).toBe(201);
    const inc = (await pub.next('btcusdt.ob-inc')) as { asks: string[]; sequence: number };
    expect(inc).toEqual({ asks: ['66000', '0.5'], sequence: start.sequence + 1 });
    const booked = await pub.next('btcusdt.update', (u: { asks: unknown[] }) => u.asks.length === 1);
    expect(booked).toMatchObject({ asks: [['66000', '0.5']], bids: [] });
    const opened = await priv.next('order');
    expect(opened).toMatchObject({
      side: 'sell',
      state: 'wait',
      market: 'btcusdt',
      price: '66000.0',
      kind: 'ask',
    });
    // Ranger's times: integer Unix seconds, `at` being the creation.
    const { at, created_at, updated_at } = opened as Record<string, unknown>;
    expect([at, created_at, updated_at].every((v) => Number.isInteger(v))).toBe(true);
    expect(Math.abs((at as number) - Date.now() / 1000)).toBeLessThan(60);
    expect(created_at).toBe(at);

    expect((await place(taker, { side: 'buy', volume: '0.1', price: '66000' })).statusCode).toBe(201);
    const trades = (await pub.next('btcusdt.trades')) as { trades: Record<string, unknown>[] };
    expect(trades.trades[0]).toMatchObject({ price: '66000', amount: '0.1', taker_type: 'buy' });
    expect(typeof trades.trades[0]?.tid).toBe('number');
    expect(typeof trades.trades[0]?.date).toBe('number');

    const candle = (await pub.next('btcusdt.kline-1m')) as unknown[];
    expect(candle).toHaveLength(6);
    for (const value of candle) expect(typeof value).toBe('number');
    expect(candle.slice(1)).toEqual([66000, 66000, 66000, 66000, 0.1]);

    const trade = await priv.next('trade');
    expect(trade).toMatchObject({ price: '66000', amount: '0.1', side: 'sell', market: 'btcusdt' });
    const balances = (await priv.next('balances', (b: Record<string, unknown>) => 'usdt' in b)) as Record<
      string,
      string[]
    >;
    expect(balances.usdt).toEqual([expect.any(String), expect.any(String)]);
    const partial = await priv.next('order', (o: { state: string }) => o.state === 'pending');
    expect(partial).toMatchObject({ remaining_volume: '0.4', executed_volume: '0.1' });

    // Item 1: Peatio's flat ticker per market, so event[market].last is the last price.
    const tickers = (await pub.next(
      'global.tickers',
      (e: Record<string, { last?: string }>) => e.btcusdt?.last === '66000',
      5000,
    )) as Record<string, Record<string, unknown>>;
    const ticker = tickers.btcusdt;
    expect(ticker).toMatchObject({
      last: '66000',
      high: '66000',
      low: '66000',
      open: '66000',
      volume: '0.1',
      amount: '6600',
      avg_price: '66000',
      price_change_percent: '+0.00%',
      name: 'BTC/USDT',
      base_unit: 'btc',
      quote_unit: 'usdt',
    });
    expect(typeof ticker?.at).toBe('number');
    expect(ticker?.ticker).toBeUndefined();
    for (const socket of [pub, snap, priv]) socket.ws.close();
  });
});

describe('subscription answers, as Ranger gives them', () => {
  const subscribed = (streams: string[]) => ({ message: 'subscribed', streams });

  it('answers a subscription in the query string, public and private, like a subscribe message', async () => {
    const pub = await ranger('public/?stream=global.tickers&stream=ethbtc.trades');
    expect(await pub.next('success')).toEqual(subscribed(['global.tickers', 'ethbtc.trades']));
    const priv = await ranger('private/?stream=order&stream=balances', { cookie: maker.cookie });
    expect(await priv.next('success')).toEqual(subscribed(['order', 'balances']));
    // A connection that names no stream in its query gets no answer for it: the first is its message's.
    const bare = await ranger('public/');
    bare.ws.send(JSON.stringify({ event: 'subscribe', streams: ['ethbtc.trades'] }));
    expect(await bare.next('success')).toEqual(subscribed(['ethbtc.trades']));
    expect(bare.frames).toEqual([{ success: subscribed(['ethbtc.trades']) }]);
    for (const socket of [pub, priv, bare]) socket.ws.close();
  });

  it('splits comma-separated names in one stream parameter', async () => {
    const pub = await ranger('public/?stream=global.tickers,ethbtc.trades&stream=ethbtc.kline-1m');
    const all = ['global.tickers', 'ethbtc.trades', 'ethbtc.kline-1m'];
    expect(await pub.next('success')).toEqual(subscribed(all));
    const priv = await ranger('private/?stream=order,balances', { cookie: maker.cookie });
    expect(await priv.next('success')).toEqual(subscribed(['order', 'balances']));
    for (const stream of all) expect(t.deps.hub.publish(stream, { n: 1 })).toBeGreaterThanOrEqual(1);
    await pub.next('ethbtc.trades');
    for (const socket of [pub, priv]) socket.ws.close();
  });

  it('refuses a subscribe or unsubscribe message without streams, and stays usable', async () => {
    const pub = await ranger('public/');
    const refusal = { message: 'streams must be a non-empty list' };
    const errors = () => pub.frames.filter((f) => 'error' in f);
    const bad = [
      { event: 'subscribe', streams: [] },
      { event: 'subscribe' },
      { event: 'subscribe', streams: 'global.tickers' },
      { event: 'unsubscribe', streams: [] },
    ];
    for (const message of bad) pub.ws.send(JSON.stringify(message));
    await vi.waitFor(() => expect(errors()).toHaveLength(bad.length));
    expect(errors()).toEqual(bad.map(() => ({ error: refusal })));
    expect(pub.frames.some((f) => 'success' in f)).toBe(false);
    pub.ws.send(JSON.stringify({ event: 'subscribe', streams: ['global.tickers'] }));
    expect(await pub.next('success')).toEqual(subscribed(['global.tickers']));
    pub.ws.close();
  });
});
