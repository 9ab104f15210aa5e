import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { type BaseAppClient, baseAppUser } from '../support/contract.ts';

// Peatio's trading contract as BaseApp 2.6 and plain Peatio API clients use it (issue 16, items 9-12).
let t: TestApp;
let maker: BaseAppClient;
let taker: BaseAppClient;
const BTC = 10n ** 8n;
const USDT = 1_000_000n;

beforeAll(async () => {
  t = await createTestApp();
  const credit = (user: number, currency: string, amount: bigint) =>
    t.deps.core.sequencer.submit({ type: 'Credit', user, currency, amount, kind: 'deposit' });
  const a = await baseAppUser(t, 'contract-maker@example.com');
  const b = await baseAppUser(t, 'contract-taker@example.com');
  await credit(a.id, 'btc', 2n * BTC);
  await credit(b.id, 'usdt', 200_000n * USDT);
  maker = a.client;
  taker = b.client;
});
afterAll(() => t.close());

const order = (client: BaseAppClient, body: Record<string, unknown>, form = false) =>
  client.peatio(
    'POST',
    '/market/orders',
    { market: 'btcusdt', ord_type: 'limit', ...body },
    { csrf: true, form },
  );

describe('orders as BaseApp and API clients place them', () => {
  it('item 10: places an order sent as a form, and as JSON, with Peatio fields (decimals as strings)', async () => {
    const ask = await order(maker, { side: 'sell', volume: '0.5', price: '66000' }, true);
    expect(ask.statusCode, ask.body).toBe(201);
    expect(ask.json()).toMatchObject({ side: 'sell', ord_type: 'limit', price: '66000.0', state: 'wait' });
    for (const field of ['origin_volume', 'remaining_volume', 'executed_volume', 'avg_price'])
      expect(typeof ask.json()[field]).toBe('string');
    expect(typeof ask.json().id).toBe('number');
    const json = await order(maker, { side: 'sell', volume: '0.2', price: '67000' });
    expect(json.statusCode).toBe(201);
  });

  it('item 10: lists orders with a form-style state[] query and the paging headers', async () => {
    const res = await maker.peatio('GET', '/market/orders?market=btcusdt&state[]=wait&state[]=done');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers.total).toBe('2');
  });

  it('item 12: refuses a bad state filter with market.order.invalid_state', async () => {
    const res = await maker.peatio('GET', '/market/orders?state=open');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ errors: ['market.order.invalid_state'] });
  });

  it('item 12: refuses an unknown market with market.market.doesnt_exist_or_not_enabled', async () => {
    const res = await order(maker, { market: 'dogeeur', side: 'sell', volume: '1', price: '1' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ errors: ['market.market.doesnt_exist_or_not_enabled'] });
  });

  it('item 12: cancelling an unknown order answers 404 record.not_found', async () => {
    const res = await maker.peatio('POST', '/market/orders/987654/cancel', undefined, { csrf: true });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ errors: ['record.not_found'] });
  });

  it('trades and cancels: the taker fills, the maker cancels its newest order', async () => {
    const fill = await order(taker, { side: 'buy', volume: '0.1', price: '66000' });
    expect(fill.statusCode).toBe(201);
    const open = (await maker.peatio('GET', '/market/orders?market=btcusdt&state=wait')).json();
    const cancelled = await maker.peatio('POST', `/market/orders/${open[0].id}/cancel`, undefined, {
      csrf: true,
    });
    expect(cancelled.statusCode).toBe(201);
    const mine = (await taker.peatio('GET', '/market/trades?market=btcusdt')).json();
    expect(mine[0]).toMatchObject({ price: '66000', amount: '0.1', market: 'btcusdt' });
    const balances = (await taker.peatio('GET', '/account/balances')).json();
    const btc = balances.find((b: { currency: string }) => b.currency === 'btc');
    expect(btc).toMatchObject({ balance: expect.any(String), locked: expect.any(String) });
  });
});

describe('public market data BaseApp loads', () => {
  const get = (path: string) => t.app.inject({ method: 'GET', url: `/api/v2/peatio${path}` });

  it('markets, tickers ({at, ticker}), depth and trades keep Peatio names and string decimals', async () => {
    const [market] = (await get('/public/markets')).json();
    expect(market).toMatchObject({
      id: expect.any(String),
      base_unit: expect.any(String),
      min_price: expect.any(String),
    });
    const tickers = (await get('/public/markets/tickers')).json();
    expect(tickers.btcusdt).toMatchObject({
      at: expect.any(Number),
      ticker: { last: '66000', volume: '0.1' },
    });
    const depth = (await get('/public/markets/btcusdt/depth')).json();
    expect(depth).toMatchObject({ timestamp: expect.any(Number), asks: [['66000', '0.4']] });
    const [trade] = (await get('/public/markets/btcusdt/trades')).json();
    expect(trade).toMatchObject({ price: '66000', amount: '0.1', taker_type: 'buy' });
  });

  it('item 9: k-line values are numbers [[t, o, h, l, c, v]]', async () => {
    const res = await get('/public/markets/btcusdt/k-line?period=1&limit=5');
    expect(res.statusCode).toBe(200);
    const [candle] = res.json();
    expect(candle).toHaveLength(6);
    for (const value of candle) expect(typeof value).toBe('number');
    expect(candle.slice(1)).toEqual([66000, 66000, 66000, 66000, 0.1]);
  });

  it('item 11: GET /public/member-levels answers minimum levels', async () => {
    const res = await get('/public/member-levels');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      deposit: { minimum_level: expect.any(Number) },
      withdraw: { minimum_level: 3 },
      trading: { minimum_level: expect.any(Number) },
    });
  });

  it('item 11: GET /public/markets/{id}/order-book answers open orders per side, best first', async () => {
    await order(maker, { side: 'sell', volume: '0.1', price: '68000' });
    await order(taker, { side: 'buy', volume: '0.1', price: '60000' });
    await order(taker, { side: 'buy', volume: '0.1', price: '61000' });
    const res = await get('/public/markets/btcusdt/order-book?asks_limit=5&bids_limit=1');
    expect(res.statusCode).toBe(200);
    const { asks, bids } = res.json();
    expect(asks.map((o: { price: string }) => o.price)).toEqual(['66000.0', '68000.0']);
    expect(bids.map((o: { price: string }) => o.price)).toEqual(['61000.0']);
    expect(asks[0]).toMatchObject({
      side: 'sell',
      state: 'pending',
      market: 'btcusdt',
      remaining_volume: '0.4',
    });
    expect(typeof asks[0].id).toBe('number');
  });

  it('item 12: an unknown market is public.market.doesnt_exist, a bad period public.k_line.invalid_period', async () => {
    for (const path of [
      '/public/markets/dogeeur/depth',
      '/public/markets/dogeeur/k-line',
      '/public/markets/dogeeur/order-book',
    ]) {
      const res = await get(path);
      expect(res.statusCode, path).toBe(422);
      expect(res.json(), path).toEqual({ errors: ['public.market.doesnt_exist'] });
    }
    const period = await get('/public/markets/btcusdt/k-line?period=7');
    expect(period.statusCode).toBe(422);
    expect(period.json()).toEqual({ errors: ['public.k_line.invalid_period'] });
  });
});

describe('an order and its trades as Peatio shows them', () => {
  it('GET /market/orders/{id} carries its trades, and each trade its fee rate, amount and currency', async () => {
    const fill = await order(taker, { side: 'buy', volume: '0.05', price: '66000' });
    expect(fill.statusCode, fill.body).toBe(201);
    const mine = (await taker.peatio('GET', `/market/orders/${fill.json().id}`)).json();
    expect(mine.trades).toHaveLength(1);
    const [trade] = mine.trades;
    expect(trade).toMatchObject({
      order_id: mine.id,
      side: 'buy',
      price: '66000',
      amount: '0.05',
      market: 'btcusdt',
      fee: mine.taker_fee,
      fee_currency: 'btc',
    });
    const listed = (await taker.peatio('GET', '/market/trades?market=btcusdt')).json();
    expect(listed[0]).toEqual(trade);
    // The maker's side of the same trade: its own order, its maker fee rate, paid in what it received.
    const theirs = (await maker.peatio('GET', '/market/trades?market=btcusdt')).json()[0];
    expect(theirs.id).toBe(trade.id);
    const makerOrder = (await maker.peatio('GET', `/market/orders/${theirs.order_id}`)).json();
    expect(theirs).toMatchObject({ side: 'sell', fee: makerOrder.maker_fee, fee_currency: 'usdt' });
    expect(makerOrder.trades.map((x: { id: number }) => x.id)).toContain(trade.id);
    // Another user's order stays unknown, its trades with it.
    const other = await taker.peatio('GET', `/market/orders/${theirs.order_id}`);
    expect([other.statusCode, other.json()]).toEqual([404, { errors: ['market.order.doesnt_exist'] }]);
  });

  it('the member entity carries its accounts on account/members/me, as on account/me', async () => {
    const member = (await taker.peatio('GET', '/account/members/me')).json();
    expect(member).toEqual((await taker.peatio('GET', '/account/me')).json());
    const usdt = member.accounts.find((a: { currency: string }) => a.currency === 'usdt');
    expect(usdt).toEqual({ currency: 'usdt', balance: expect.any(String), locked: expect.any(String) });
    expect(member).not.toHaveProperty('id');
  });
});

describe("Peatio's paging and filters on markets and balances", () => {
  it('GET /public/markets takes limit, page, base_unit and quote_unit, and answers the paging headers', async () => {
    const get = (path: string) => t.app.inject({ method: 'GET', url: `/api/v2/peatio${path}` });
    const all = await get('/public/markets');
    const total = all.json().length;
    expect(total).toBeGreaterThan(1);
    expect([all.headers.total, all.headers.page, all.headers['per-page']]).toEqual([
      String(total),
      '1',
      '100',
    ]);
    const first = await get('/public/markets?limit=1&page=1');
    const second = await get('/public/markets?limit=1&page=2');
    expect(first.json()).toEqual([all.json()[0]]);
    expect(second.json()).toEqual([all.json()[1]]);
    expect(second.headers.total).toBe(String(total));
    const usdt = (await get('/public/markets?quote_unit=usdt')).json();
    expect(usdt.length).toBeGreaterThan(0);
    expect(usdt.every((m: { quote_unit: string }) => m.quote_unit === 'usdt')).toBe(true);
    const btc = (await get('/public/markets?base_unit=BTC')).json();
    expect(btc.map((m: { id: string }) => m.id)).toContain('btcusdt');
    expect(btc.every((m: { base_unit: string }) => m.base_unit === 'btc')).toBe(true);
    for (const bad of ['limit=0', 'limit=1001', 'page=0', 'limit=x'])
      expect((await get(`/public/markets?${bad}`)).statusCode, bad).toBe(422);
  });

  it('GET /account/balances takes limit, page and nonzero, and answers the paging headers', async () => {
    const all = await taker.peatio('GET', '/account/balances');
    const total = all.json().length;
    expect(all.headers.total).toBe(String(total));
    const page2 = await taker.peatio('GET', '/account/balances?limit=2&page=2');
    expect(page2.json()).toEqual(all.json().slice(2, 4));
    expect([page2.headers.page, page2.headers['per-page']]).toEqual(['2', '2']);
    const nonzero = await taker.peatio('GET', '/account/balances?nonzero=true');
    const held = all
      .json()
      .filter((b: { balance: string; locked: string }) => b.balance !== '0' || b.locked !== '0');
    expect(held.length).toBeGreaterThan(0);
    expect(held.length).toBeLessThan(total);
    expect(nonzero.json()).toEqual(held);
    expect(nonzero.headers.total).toBe(String(held.length));
  });
});
