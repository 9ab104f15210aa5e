import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { placeOrder, sellerAndBuyer, type Trader } from '../support/trading.ts';

// Orders over HTTP and the public market data. The streams: trading-streams.test.ts; favourites:
// trading-favourites.test.ts.
let t: TestApp;
let seller: Trader;
let buyer: Trader;

beforeAll(async () => {
  t = await createTestApp();
  ({ seller, buyer } = await sellerAndBuyer(t));
});
afterAll(() => t.close());

const order = (who: Trader, body: Record<string, unknown>) => placeOrder(t, who, body);
const get = (url: string, who?: { headers: Record<string, string> }) =>
  t.app.inject({ method: 'GET', url: `/api/v2/peatio${url}`, headers: who?.headers ?? {} });
const balances = async (who: { headers: Record<string, string> }) =>
  Object.fromEntries(
    (await get('/account/balances', who))
      .json()
      .map((b: { currency: string; balance: string; locked: string }) => [b.currency, [b.balance, b.locked]]),
  );

describe('orders over HTTP', () => {
  it('places a limit order once it is in the journal, in the Peatio shape; the user reads it at once', async () => {
    const res = await order(seller, {
      market: 'ethbtc',
      side: 'sell',
      volume: '2',
      price: '0.05',
      ord_type: 'limit',
    });
    expect(res.statusCode).toBe(201);
    const o = res.json();
    expect(o).toMatchObject({
      side: 'sell',
      ord_type: 'limit',
      price: '0.05',
      state: 'wait',
      market: 'ethbtc',
      origin_volume: '2.0',
      remaining_volume: '2.0',
      executed_volume: '0.0',
      trades_count: 0,
    });
    expect(o.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // The answer came once the order was in the journal; the user's own reads wait for the tables.
    const journal = await t.db.pool.query('select count(*)::int as n from core_journal where body like $1', [
      `%"ethbtc","sell","limit","2000"%`,
    ]);
    expect(journal.rows[0].n).toBe(1);
    expect((await balances(seller)).eth).toEqual(['8', '2']);
    expect((await get(`/market/orders/${o.id}`, seller)).json()).toMatchObject({
      uuid: o.uuid,
      state: 'wait',
    });
    const stored = await t.db.pool.query('select uuid::text from orders where id = $1', [o.id]);
    expect(stored.rows[0].uuid).toBe(o.uuid);
    const depth = (await get('/public/markets/ethbtc/depth')).json();
    expect(depth.asks).toEqual([['0.05', '2']]);
  });

  it.each([
    [
      'too many amount decimals',
      { market: 'ethbtc', side: 'sell', volume: '0.0001', price: '0.05' },
      'market.order.invalid_volume_precision',
    ],
    [
      'too many price decimals',
      { market: 'ethbtc', side: 'sell', volume: '1', price: '0.050001' },
      'market.order.invalid_price_precision',
    ],
    [
      'zero volume',
      { market: 'ethbtc', side: 'sell', volume: '0', price: '0.05' },
      'market.order.non_positive_volume',
    ],
    [
      'volume below the minimum ("Amount must be greater than 1")',
      { market: 'trxusdt', side: 'sell', volume: '0.5', price: '0.25' },
      'market.order.invalid_volume',
    ],
    [
      'unknown market',
      { market: 'dogeeur', side: 'sell', volume: '1', price: '1' },
      'market.market.doesnt_exist_or_not_enabled',
    ],
    ['bad side', { market: 'ethbtc', side: 'hold', volume: '1', price: '0.05' }, 'market.order.invalid_side'],
    [
      'not a decimal',
      { market: 'ethbtc', side: 'sell', volume: '1e3', price: '0.05' },
      'market.order.invalid_volume',
    ],
    [
      'insufficient funds',
      { market: 'ethbtc', side: 'sell', volume: '100', price: '0.05' },
      'market.account.insufficient_balance',
    ],
    [
      'price above the maximum',
      { market: 'ethbtc', side: 'sell', volume: '1', price: '11' },
      'market.order.invalid_price',
    ],
    [
      'market order into an empty side',
      { market: 'ethbtc', side: 'sell', volume: '1', ord_type: 'market' },
      'market.order.insufficient_market_liquidity',
    ],
  ])('refuses %s with 422 and changes nothing', async (_name, body, code) => {
    const before = await balances(seller);
    const count = (await t.db.pool.query('select count(*)::int as n from orders')).rows[0].n;
    const res = await order(seller, body);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ errors: [code] });
    expect(await balances(seller)).toEqual(before);
    expect(
      (await t.db.pool.query('select count(*)::int as n from orders where state <> $1', ['reject'])).rows[0]
        .n,
    ).toBe(count);
  });

  it('matches, and both sides see the trade; public trades, depth and tickers follow', async () => {
    const res = await order(buyer, { market: 'ethbtc', side: 'buy', volume: '1.5', price: '0.05' });
    expect(res.json()).toMatchObject({
      state: 'done',
      executed_volume: '1.5',
      avg_price: '0.05',
      trades_count: 1,
    });
    const mine = (await get('/market/trades', buyer)).json();
    expect(mine).toEqual([
      expect.objectContaining({
        price: '0.05',
        amount: '1.5',
        total: '0.075',
        side: 'buy',
        market: 'ethbtc',
        fee_currency: 'eth',
      }),
    ]);
    const theirs = (await get('/market/trades', seller)).json();
    expect(theirs[0]).toMatchObject({ side: 'sell', fee_currency: 'btc' });
    expect((await get('/public/markets/ethbtc/trades')).json()[0]).toMatchObject({
      price: '0.05',
      amount: '1.5',
      taker_type: 'buy',
    });
    expect((await get('/public/markets/ethbtc/depth')).json().asks).toEqual([['0.05', '0.5']]);
    const ticker = (await get('/public/markets/tickers')).json().ethbtc.ticker;
    expect(ticker).toMatchObject({
      last: '0.05',
      volume: '1.5',
      amount: '0.075',
      price_change_percent: '+0.00%',
    });
  });

  it("cannot see or cancel someone else's order, and cancels its own", async () => {
    const mine = (await get('/market/orders?state=pending', seller)).json();
    expect(mine).toHaveLength(1);
    const id = mine[0].id;
    expect((await get(`/market/orders/${id}`, buyer)).statusCode).toBe(404);
    const steal = await t.app.inject({
      method: 'POST',
      url: `/api/v2/peatio/market/orders/${id}/cancel`,
      headers: buyer.headers,
    });
    expect(steal.statusCode).toBe(404);
    expect(steal.json()).toEqual({ errors: ['record.not_found'] });
    const own = await t.app.inject({
      method: 'POST',
      url: `/api/v2/peatio/market/orders/${id}/cancel`,
      headers: seller.headers,
    });
    expect(own.statusCode).toBe(201);
    expect(own.json()).toMatchObject({ id, state: 'cancel', remaining_volume: '0.5' });
    expect((await balances(seller)).eth).toEqual(['8.5', '0']);
  });

  it('cancels all open orders, optionally by side', async () => {
    for (const price of ['0.06', '0.07'])
      await order(seller, { market: 'ethbtc', side: 'sell', volume: '1', price });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v2/peatio/market/orders/cancel',
      headers: seller.headers,
      payload: { side: 'sell' },
    });
    expect(res.json().map((o: { state: string }) => o.state)).toEqual(['cancel', 'cancel']);
    expect((await balances(seller)).eth).toEqual(['8.5', '0']);
  });

  it('lists orders with filters and pagination headers', async () => {
    const res = await get('/market/orders?limit=2&page=1&state=cancel', seller);
    expect(res.headers.total).toBe('3');
    expect(res.headers.page).toBe('1');
    expect(res.headers['per-page']).toBe('2');
    expect(res.json()).toHaveLength(2);
    expect((await get('/market/orders', undefined)).statusCode).toBe(401);
  });

  it('places an order with a client id once, however often it is sent', async () => {
    const body = { market: 'ethbtc', side: 'sell', volume: '1', price: '0.09', client_id: 'my-order-1' };
    const [a, b] = await Promise.all([order(seller, body), order(seller, body)]);
    const c = await order(seller, body);
    expect([a.statusCode, b.statusCode, c.statusCode]).toEqual([201, 201, 201]);
    expect(new Set([a.json().id, b.json().id, c.json().id]).size).toBe(1);
    const rows = await t.db.pool.query(
      `select count(*)::int as n from orders where price = 0.09 and user_id = $1`,
      [seller.id],
    );
    expect(rows.rows[0].n).toBe(1);
    await t.app.inject({
      method: 'POST',
      url: `/api/v2/peatio/market/orders/${a.json().id}/cancel`,
      headers: seller.headers,
    });
  });

  it('keeps the ledger exact after all of it', async () => {
    const { auditLedger } = await import('../../src/core/audit.ts');
    expect(await auditLedger(t.db.pool)).toEqual([]);
  });
});

describe('market data', () => {
  it('lists markets and currencies in the Peatio shapes', async () => {
    const markets = (await get('/public/markets')).json();
    expect(markets[0]).toMatchObject({
      id: 'ethbtc',
      name: 'ETH/BTC',
      type: 'spot',
      base_unit: 'eth',
      quote_unit: 'btc',
      price_precision: 5,
      amount_precision: 3,
      min_amount: '0.001',
    });
    const usdt = (await get('/public/currencies')).json().find((c: { id: string }) => c.id === 'usdt');
    expect(usdt.networks.map((n: { blockchain_key: string }) => n.blockchain_key).sort()).toEqual([
      'eth-devnet',
      'tron-sim',
    ]);
    expect((await get('/public/trading_fees')).json()[0]).toMatchObject({
      market_id: 'any',
      group: 'any',
      maker: '0.001',
    });
  });

  it('builds k-lines from trades, bucket by bucket', async () => {
    const u = buyer.id;
    const rows: [number, string, string][] = [
      [0, '0.1', '10'],
      [20, '0.12', '5'],
      [50, '0.09', '1'],
      [70, '0.11', '2'],
      [200, '0.13', '3'],
    ];
    const base = Math.floor(Date.UTC(2026, 0, 5, 10, 0, 0) / 1000);
    for (const [i, [offset, price, amount]] of rows.entries()) {
      await t.db.pool.query(
        `insert into trades (id, market_id, price, amount, total, maker_order_id, taker_order_id, maker_id, taker_id, taker_type,
           maker_fee, taker_fee, created_at) values ($1, 'trxusdt', $2, $3, $2::numeric * $3::numeric, 1, 2, $4, $4, 'buy', 0, 0, to_timestamp($5))`,
        [900_000 + i, price, amount, u, base + offset],
      );
    }
    const oneMinute = (
      await get(`/public/markets/trxusdt/k-line?period=1&time_from=${base}&time_to=${base + 300}`)
    ).json();
    expect(oneMinute).toEqual([
      [base, 0.1, 0.12, 0.09, 0.09, 16],
      [base + 60, 0.11, 0.11, 0.11, 0.11, 2],
      [base + 180, 0.13, 0.13, 0.13, 0.13, 3],
    ]);
    const fiveMinutes = (
      await get(`/public/markets/trxusdt/k-line?period=5&time_from=${base}&time_to=${base + 300}`)
    ).json();
    expect(fiveMinutes).toEqual([[base, 0.1, 0.13, 0.09, 0.13, 21]]);
    expect((await get('/public/markets/trxusdt/k-line?period=7')).statusCode).toBe(422);
    expect((await get('/public/markets/btcusdt/k-line?period=60')).json()).toEqual([]);
    await t.db.ownerPool.query('delete from trades where id >= 900000');
  });

  it('bounds k-lines by candle start: time_from <= t <= time_to, never a candle after time_to (issue 32 item 5)', async () => {
    const u = buyer.id;
    const base = Math.floor(Date.UTC(2026, 0, 6, 10, 0, 0) / 1000);
    // One trade in each of three 5-minute buckets: base, base+300, base+600.
    for (const [i, offset] of [10, 310, 610].entries()) {
      await t.db.pool.query(
        `insert into trades (id, market_id, price, amount, total, maker_order_id, taker_order_id, maker_id, taker_id, taker_type,
           maker_fee, taker_fee, created_at) values ($1, 'trxusdt', '0.1', '1', '0.1', 1, 2, $2, $2, 'buy', 0, 0, to_timestamp($3))`,
        [900_100 + i, u, base + offset],
      );
    }
    const starts = async (from: number, to: number) =>
      (await get(`/public/markets/trxusdt/k-line?period=5&time_from=${from}&time_to=${to}`))
        .json()
        .map((c: number[]) => c[0]);
    // time_to inside the first bucket: only that candle, not the one starting at base+300.
    expect(await starts(base, base + 299)).toEqual([base]);
    // time_to exactly at a bucket start includes that candle.
    expect(await starts(base, base + 300)).toEqual([base, base + 300]);
    // time_from inside a bucket: that bucket started before time_from, so it is left out (no partial candle).
    expect(await starts(base + 1, base + 900)).toEqual([base + 300, base + 600]);
    // Without time_from the latest candles up to time_to.
    const latest = (await get(`/public/markets/trxusdt/k-line?period=5&time_to=${base + 599}&limit=5`))
      .json()
      .map((c: number[]) => c[0]);
    expect(latest.at(-1)).toBe(base + 300);
    await t.db.ownerPool.query('delete from trades where id >= 900000');
  });
});
