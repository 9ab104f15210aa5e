/**
 * Limit order options over HTTP (issue 32): `time_in_force` (gtc, ioc, fok) and `post_only` on
 * `POST /api/v2/peatio/market/orders`, in the answer, in GET orders, and each refusal (422, nothing placed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { plainUser, sessionFor } from '../support/core.ts';

let t: TestApp;
let maker: Record<string, string>;
let taker: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  const ids: number[] = [];
  for (const email of ['maker@tif.test', 'taker@tif.test']) {
    const id = await plainUser(t.db.pool, email);
    for (const [currency, amount] of [
      ['eth', 100n * 10n ** 18n],
      ['btc', 10n * 10n ** 8n],
    ] as const) {
      await t.deps.core.sequencer.submit({ type: 'Credit', user: id, currency, amount, kind: 'deposit' });
    }
    ids.push(id);
  }
  maker = await sessionFor(t.deps.sessions, ids[0] as number);
  taker = await sessionFor(t.deps.sessions, ids[1] as number);
});
afterAll(() => t.close());

const post = (headers: Record<string, string>, body: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v2/peatio/market/orders',
    headers,
    payload: { market: 'ethbtc', ...body },
  });
const get = (headers: Record<string, string>, url: string) =>
  t.app.inject({ method: 'GET', url: `/api/v2/peatio${url}`, headers });
const balance = async (headers: Record<string, string>, currency: string) =>
  (await get(headers, `/account/balances/${currency}`)).json() as { balance: string; locked: string };
const orderCount = async () => {
  await t.deps.core.sequencer.settled();
  return (await t.db.pool.query('select count(*)::int as n from orders')).rows[0].n;
};
/** Cancels every open order of both users, so that each case starts from an empty book. */
const clearBook = async () => {
  for (const headers of [maker, taker])
    await t.app.inject({ method: 'POST', url: '/api/v2/peatio/market/orders/cancel', headers, payload: {} });
};

describe('time in force and post-only over HTTP', () => {
  it('answers gtc and not post-only by default, and keeps post_only on a resting order', async () => {
    await clearBook();
    const plain = await post(maker, { side: 'sell', volume: '1', price: '0.05' });
    expect(plain.statusCode).toBe(201);
    expect(plain.json()).toMatchObject({ state: 'wait', time_in_force: 'gtc', post_only: false });

    const resting = await post(taker, { side: 'buy', volume: '1', price: '0.04', post_only: true });
    expect(resting.statusCode).toBe(201);
    expect(resting.json()).toMatchObject({ state: 'wait', time_in_force: 'gtc', post_only: true });
    const one = await get(taker, `/market/orders/${resting.json().id}`);
    expect(one.json()).toMatchObject({ time_in_force: 'gtc', post_only: true });
    const list = await get(taker, '/market/orders?state=wait');
    expect(list.json()).toEqual([expect.objectContaining({ id: resting.json().id, post_only: true })]);
  });

  it('cancels a post-only order that would take, without a trade (post_only as Peatio form text too)', async () => {
    await clearBook();
    await post(maker, { side: 'sell', volume: '1', price: '0.05' });
    const before = await balance(taker, 'btc');
    for (const postOnly of [true, 'true']) {
      const res = await post(taker, { side: 'buy', volume: '1', price: '0.05', post_only: postOnly });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({
        state: 'cancel',
        cancel_reason: 'post_only',
        executed_volume: '0.0',
        post_only: true,
      });
    }
    expect(await balance(taker, 'btc')).toEqual(before);
  });

  it('fills an ioc order as far as the book goes and cancels the rest', async () => {
    await clearBook();
    await post(maker, { side: 'sell', volume: '1', price: '0.05' });
    const res = await post(taker, { side: 'buy', volume: '3', price: '0.05', time_in_force: 'ioc' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      state: 'cancel',
      cancel_reason: 'unfilled',
      time_in_force: 'ioc',
      executed_volume: '1.0',
      remaining_volume: '2.0',
    });
    expect((await balance(taker, 'btc')).locked).toBe('0');
  });

  it('kills a fok order the book cannot fill wholly, and fills one it can', async () => {
    await clearBook();
    await post(maker, { side: 'sell', volume: '1', price: '0.05' });
    const before = await balance(taker, 'btc');
    const killed = await post(taker, { side: 'buy', volume: '2', price: '0.05', time_in_force: 'fok' });
    expect(killed.statusCode).toBe(201);
    expect(killed.json()).toMatchObject({
      state: 'cancel',
      cancel_reason: 'fill_or_kill',
      time_in_force: 'fok',
      executed_volume: '0.0',
    });
    expect(await balance(taker, 'btc')).toEqual(before);

    const filled = await post(taker, { side: 'buy', volume: '1', price: '0.05', time_in_force: 'fok' });
    expect(filled.statusCode).toBe(201);
    expect(filled.json()).toMatchObject({ state: 'done', time_in_force: 'fok', executed_volume: '1.0' });
  });

  it('answers ioc for market orders and gtc for stop orders', async () => {
    await clearBook();
    await post(maker, { side: 'sell', volume: '1', price: '0.05' });
    const market = await post(taker, { side: 'buy', ord_type: 'market', volume: '1' });
    expect(market.json()).toMatchObject({ ord_type: 'market', time_in_force: 'ioc', post_only: false });
    const stop = await post(taker, {
      side: 'buy',
      ord_type: 'stop_loss_limit',
      volume: '1',
      price: '0.09',
      stop_price: '0.09',
      time_in_force: 'gtc',
    });
    expect(stop.statusCode).toBe(201);
    expect(stop.json()).toMatchObject({ time_in_force: 'gtc', post_only: false });
  });

  it.each([
    ['an unknown time in force', { time_in_force: 'day' }, 'market.order.invalid_time_in_force'],
    [
      'a time in force on a market order',
      { ord_type: 'market', price: undefined, time_in_force: 'ioc' },
      'market.order.market_order_time_in_force',
    ],
    [
      'ioc on a stop order',
      { ord_type: 'stop_loss_limit', stop_price: '0.05', time_in_force: 'ioc' },
      'market.order.stop_order_time_in_force',
    ],
    [
      'fok on a stop order',
      { ord_type: 'take_profit_limit', stop_price: '0.05', time_in_force: 'fok' },
      'market.order.stop_order_time_in_force',
    ],
    ['post_only that is not a boolean', { post_only: 'yes' }, 'market.order.invalid_post_only'],
    [
      'post_only on a market order',
      { ord_type: 'market', price: undefined, post_only: true },
      'market.order.post_only_not_limit',
    ],
    [
      'post_only on a stop order',
      { ord_type: 'stop_loss_limit', stop_price: '0.05', post_only: true },
      'market.order.post_only_not_limit',
    ],
    ['post_only with ioc', { time_in_force: 'ioc', post_only: true }, 'market.order.post_only_time_in_force'],
    ['post_only with fok', { time_in_force: 'fok', post_only: true }, 'market.order.post_only_time_in_force'],
  ])('refuses %s with 422 and places nothing', async (_name, options, code) => {
    await clearBook();
    await post(maker, { side: 'sell', volume: '1', price: '0.05' });
    const before = await orderCount();
    const res = await post(taker, { side: 'buy', volume: '1', price: '0.05', ...options });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ errors: [code] });
    expect(await orderCount()).toBe(before);
  });
});
