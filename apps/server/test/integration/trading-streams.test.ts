import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { createTestApp, type TestApp } from '../support/app.ts';
import { placeOrder, sellerAndBuyer, type Trader } from '../support/trading.ts';

// The ranger streams: a book snapshot and its increments, private order and balance updates. Orders over HTTP
// and the market data: trading.test.ts.
let t: TestApp;
let seller: Trader;
let buyer: Trader;

beforeAll(async () => {
  t = await createTestApp();
  ({ seller, buyer } = await sellerAndBuyer(t));
});
afterAll(() => t.close());

const order = (who: Trader, body: Record<string, unknown>) => placeOrder(t, who, body);

describe('streams', () => {
  let listening: string | undefined;
  const wsBase = async () =>
    (listening ??= (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('http', 'ws'));

  it('sends a book snapshot on subscribe, then increments with a gap-free sequence, and private order updates', async () => {
    const base = await wsBase();
    const frames: Record<string, unknown>[] = [];
    const publicWs = new WebSocket(
      `${base}/api/v2/ranger/public/?stream=btcusdt.ob-inc&stream=btcusdt.trades`,
    );
    publicWs.on('message', (d) => frames.push(JSON.parse(d.toString())));
    const privateFrames: Record<string, unknown>[] = [];
    const privateWs = new WebSocket(`${base}/api/v2/ranger/private/?stream=order&stream=balances`, {
      headers: { cookie: seller.headers.cookie ?? '' },
    });
    privateWs.on('message', (d) => privateFrames.push(JSON.parse(d.toString())));
    // Both subscriptions answered (the private one once its session is read), and the book's snapshot sent.
    const subscribed = (list: Record<string, unknown>[]) => list.some((f) => 'success' in f);
    await vi.waitFor(() => {
      expect(subscribed(frames) && subscribed(privateFrames)).toBe(true);
      expect(frames.some((f) => 'btcusdt.ob-snap' in f)).toBe(true);
    });
    const snap = frames.find((f) => 'btcusdt.ob-snap' in f) as {
      'btcusdt.ob-snap': { sequence: number; asks: unknown[] };
    };
    expect(snap['btcusdt.ob-snap'].asks).toEqual([]);
    const start = snap['btcusdt.ob-snap'].sequence;

    await t.deps.core.sequencer.submit({
      type: 'Credit',
      user: seller.id,
      currency: 'btc',
      amount: 10n ** 8n,
      kind: 'deposit',
    });
    await order(seller, { market: 'btcusdt', side: 'sell', volume: '0.5', price: '60000' });
    await order(seller, { market: 'btcusdt', side: 'sell', volume: '0.25', price: '60000' });
    // Both orders' frames: two increments and two order updates (anything more would show in the checks below).
    await vi.waitFor(() => {
      expect(frames.filter((f) => 'btcusdt.ob-inc' in f).length).toBeGreaterThanOrEqual(2);
      expect(privateFrames.filter((f) => 'order' in f).length).toBeGreaterThanOrEqual(2);
      expect(privateFrames.some((f) => 'balances' in f)).toBe(true);
    });
    const incs = frames
      .filter((f) => 'btcusdt.ob-inc' in f)
      .map((f) => f['btcusdt.ob-inc'] as { asks: string[]; sequence: number });
    expect(incs.map((i) => i.sequence)).toEqual([start + 1, start + 2]);
    expect(incs.map((i) => i.asks)).toEqual([
      ['60000', '0.5'],
      ['60000', '0.75'],
    ]);
    const orders = privateFrames
      .filter((f) => 'order' in f)
      .map((f) => f.order as { market: string; state: string });
    expect(orders.map((o) => [o.market, o.state])).toEqual([
      ['btcusdt', 'wait'],
      ['btcusdt', 'wait'],
    ]);
    expect(privateFrames.some((f) => 'balances' in f)).toBe(true);

    const refused = new WebSocket(`${base}/api/v2/ranger/private/?stream=order`);
    const closed = await new Promise<number>((r) => refused.once('close', (code) => r(code)));
    expect(closed).toBe(4001);
    publicWs.close();
    privateWs.close();
  });

  it('keeps a private subscription sent the moment the socket opens, before the session is looked up', async () => {
    // The web app subscribes by message on open; the server is then still reading the session cookie.
    const ws = new WebSocket(`${await wsBase()}/api/v2/ranger/private/`, {
      headers: { cookie: buyer.headers.cookie ?? '' },
    });
    const frames: Record<string, unknown>[] = [];
    ws.on('message', (d) => frames.push(JSON.parse(d.toString())));
    ws.once('open', () => ws.send(JSON.stringify({ event: 'subscribe', streams: ['balances'] })));
    const settled = { timeout: 5000 };
    await vi.waitFor(
      () => expect(frames).toContainEqual({ success: { message: 'subscribed', streams: ['balances'] } }),
      settled,
    );
    await t.deps.core.sequencer.submit({
      type: 'Credit',
      user: buyer.id,
      currency: 'usdt',
      amount: 10n ** 6n,
      kind: 'deposit',
    });
    // The credit reaches this user's private channel: a `balances` frame with their USDT in it.
    await vi.waitFor(() => {
      const balances = frames.find((f) => 'balances' in f)?.balances as Record<string, unknown> | undefined;
      expect(balances).toHaveProperty('usdt');
    }, settled);
    ws.close();
  });
});
