import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { plainUser, sessionFor } from '../support/core.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const BTC = 10n ** 8n;
const USDT = 1_000_000n;

async function trader(email: string, credits: Record<string, bigint>) {
  const id = await plainUser(t.db.pool, email);
  for (const [currency, amount] of Object.entries(credits)) {
    await t.deps.core.sequencer.submit({ type: 'Credit', user: id, currency, amount, kind: 'deposit' });
  }
  return { headers: await sessionFor(t.deps.sessions, id) };
}
const order = async (who: { headers: Record<string, string> }, body: Record<string, unknown>) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v2/peatio/market/orders',
    headers: who.headers,
    payload: { market: 'btcusdt', ord_type: 'limit', ...body },
  });
  expect(res.statusCode).toBe(201);
  return res.json();
};
const get = async (url: string) =>
  (await t.app.inject({ method: 'GET', url: `/api/v2/peatio${url}` })).json();

describe('ticker, public trade, currency and order fields', () => {
  it('carries them all, decimals as strings', async () => {
    const maker = await trader('maker@example.com', { btc: 1n * BTC, usdt: 100_000n * USDT });
    const taker = await trader('taker@example.com', { usdt: 100_000n * USDT });
    await order(maker, { side: 'sell', volume: '0.5', price: '66000' });
    await order(maker, { side: 'buy', volume: '0.2', price: '64000' });
    const before = Math.floor(Date.now() / 1000);
    await order(taker, { side: 'buy', volume: '0.1', price: '66000' });

    const ticker = (await get('/public/markets/tickers')).btcusdt.ticker;
    expect(ticker).toMatchObject({
      last: '66000',
      sell: '66000',
      buy: '64000',
      total_volume: '6600',
      total_volume_base_currency: '0.1',
      usd: '66000',
      inr: null,
      base_unit: 'btc',
    });
    const ethbtc = (await get('/public/markets/ethbtc/tickers')).ticker;
    expect(ethbtc).toMatchObject({ sell: '0', buy: '0', base_unit: 'eth', inr: null, usd: '0' });

    const [trade] = await get('/public/markets/btcusdt/trades');
    expect(trade).toMatchObject({ price: '66000', amount: '0.1', taker_type: 'buy', type: 'buy' });
    expect(trade.tid).toBe(trade.id);
    expect(trade.date).toBeGreaterThanOrEqual(before);
    expect(trade.date).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1);

    const currencies = await get('/public/currencies');
    const usdt = currencies.find((c: { id: string }) => c.id === 'usdt');
    const btc = currencies.find((c: { id: string }) => c.id === 'btc');
    expect(usdt).toMatchObject({ price: '1', swap_fees: '0.001' });
    expect(btc.price).toBe('64000');
    expect(typeof btc.swap_fees).toBe('string');

    const stop = await order(maker, {
      side: 'sell',
      ord_type: 'stop_loss_limit',
      volume: '0.1',
      price: '60000',
      stop_price: '61000',
    });
    expect(stop).toMatchObject({ stop_loss_type: 'stop_loss', bid: 'usdt', ask: 'btc' });
    const limit = await order(maker, { side: 'sell', volume: '0.01', price: '70000' });
    expect(limit).toMatchObject({ stop_loss_type: null, bid: 'usdt', ask: 'btc' });
  });
});
