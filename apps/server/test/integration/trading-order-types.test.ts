import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { plainUser, sessionFor } from '../support/core.ts';

let t: TestApp;
let headers: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  const id = await plainUser(t.db.pool, 'stops@trade.test');
  for (const [currency, amount] of [
    ['eth', 10n * 10n ** 18n],
    ['btc', 2n * 10n ** 8n],
  ] as const) {
    await t.deps.core.sequencer.submit({ type: 'Credit', user: id, currency, amount, kind: 'deposit' });
  }
  headers = await sessionFor(t.deps.sessions, id);
});
afterAll(() => t.close());

const order = (body: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/v2/peatio/market/orders', headers, payload: body });
/** Orders in the table, once it holds every order answered so far (the core answers from its journal). */
const orderCount = async () => {
  await t.deps.core.sequencer.settled();
  return (await t.db.pool.query('select count(*)::int as n from orders')).rows[0].n;
};

describe('stop order types over HTTP', () => {
  it('places a take-profit limit sell (price and stop price) and a stop-market buy (stop price, no price)', async () => {
    const takeProfit = await order({
      market: 'ethbtc',
      side: 'sell',
      ord_type: 'take_profit_limit',
      volume: '1',
      price: '0.07',
      stop_price: '0.065',
    });
    expect(takeProfit.statusCode).toBe(201);
    expect(takeProfit.json()).toMatchObject({
      ord_type: 'take_profit_limit',
      side: 'sell',
      price: '0.07',
      stop_price: '0.065',
    });

    const stopMarket = await order({
      market: 'ethbtc',
      side: 'buy',
      ord_type: 'stop_loss_order',
      volume: '2',
      stop_price: '0.08',
    });
    expect(stopMarket.statusCode).toBe(201);
    expect(stopMarket.json()).toMatchObject({
      ord_type: 'stop_loss_order',
      side: 'buy',
      price: null,
      stop_price: '0.08',
    });
  });

  it.each([
    [
      'a stop-market order with a price',
      { ord_type: 'stop_loss_order', volume: '1', price: '0.05', stop_price: '0.05' },
      'market.order.market_order_price',
    ],
    [
      'a stop-market order without a stop price',
      { ord_type: 'stop_loss_order', volume: '1' },
      'market.order.missing_stop_price',
    ],
    [
      'a take-profit limit without a price',
      { ord_type: 'take_profit_limit', volume: '1', stop_price: '0.05' },
      'market.order.missing_price',
    ],
    [
      'a stop price with too many decimals',
      { ord_type: 'stop_loss_order', volume: '1', stop_price: '0.050001' },
      'market.order.invalid_price_precision',
    ],
    [
      'a stop price on a limit order',
      { ord_type: 'limit', volume: '1', price: '0.05', stop_price: '0.05' },
      'market.order.unexpected_stop_price',
    ],
  ])('refuses %s with 422 and places nothing', async (_name, body, code) => {
    const before = await orderCount();
    const res = await order({ market: 'ethbtc', side: 'sell', ...body });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ errors: [code] });
    expect(await orderCount()).toBe(before);
  });
});
