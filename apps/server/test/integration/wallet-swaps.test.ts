import { describe, expect, it } from 'vitest';
import { TRX, walletSuite } from '../support/wallet.ts';

/** Swaps: quotes from the book, execution once at the quoted price, tolerance, history and valuation. */
const w = walletSuite();
const { member, call, balance, credit } = w;

/** A market maker bidding 0.1 USDT for 1,000 TRX, and 1,000 USDT of swap liquidity: TRX swaps have a price. */
async function swapDesk(email: string) {
  const maker = await member(email);
  await credit(maker, 'usdt', 10_000n * 1_000_000n);
  const bid = await call(maker, 'POST', '/market/orders', {
    market: 'trxusdt',
    side: 'buy',
    volume: '1000',
    price: '0.1',
  });
  expect(bid.statusCode).toBe(201);
  await w.t.deps.core.sequencer.submit({
    type: 'FundLiquidity',
    currency: 'usdt',
    amount: 1_000n * 1_000_000n,
  });
  return { maker, bid };
}

describe('swaps', () => {
  it('quotes from the book, executes at the quote once, and keeps the history', async () => {
    const { maker, bid } = await swapDesk('vic@wallet.test');

    const wes = await member('wes@wallet.test');
    await w.t.deps.core.sequencer.submit({
      type: 'Credit',
      user: wes.id,
      currency: 'trx',
      amount: 100n * TRX,
      kind: 'deposit',
    });
    const quote = (
      await call(wes, 'GET', '/account/amount_quote?from_currency=trx&to_currency=usdt&amount=50')
    ).json();
    // 50 TRX at 0.1 = 5 USDT, minus the 0.2% trx swap fee (0.01 USDT).
    expect(quote).toMatchObject({ price: '0.1', total: '4.99', fee: '0.01' });

    const body = { from_currency: 'trx', to_currency: 'usdt', amount: '50', quote_id: quote.quote_id };
    const other = await member('xia@wallet.test');
    expect((await call(other, 'POST', '/account/swaps', body)).json().errors).toEqual([
      'account.swap.quote_expired',
    ]);
    const tampered = { ...body, amount: '60' };
    expect((await call(wes, 'POST', '/account/swaps', tampered)).json().errors).toEqual([
      'account.swap.quote_expired',
    ]);

    const done = await call(wes, 'POST', '/account/swaps', body);
    expect(done.statusCode).toBe(201);
    expect(done.json()).toMatchObject({
      price: '50',
      ask_currency: 'trx',
      total: '4.99',
      currency: 'usdt',
      state: 'completed',
    });
    const again = await call(wes, 'POST', '/account/swaps', body);
    expect(again.statusCode).toBe(422);
    expect(again.json().errors).toEqual(['account.swap.quote_used']);
    expect(balance(wes, 'trx').balance).toBe(50n * TRX);
    expect(balance(wes, 'usdt').balance).toBe(4_990_000n);

    const poor = await call(
      wes,
      'GET',
      '/account/amount_quote?from_currency=trx&to_currency=usdt&amount=500',
    );
    const rejected = await call(wes, 'POST', '/account/swaps', {
      ...body,
      amount: '500',
      quote_id: poor.json().quote_id,
    });
    expect(rejected.json().errors).toEqual(['account.swap.insufficient_balance']);
    const history = await call(wes, 'GET', '/account/swaps?limit=10');
    expect(history.headers.total).toBe('2');
    expect(history.json().map((s: { state: string }) => s.state)).toEqual(['rejected', 'completed']);
    expect((await call(wes, 'GET', '/account/swaps?state=rejected')).json()).toHaveLength(1);

    // The price moves against the user beyond the tolerance before they execute: the quote is refused.
    const fresh = (
      await call(wes, 'GET', '/account/amount_quote?from_currency=trx&to_currency=usdt&amount=10')
    ).json();
    const cancel = await call(maker, 'POST', `/market/orders/${bid.json().id}/cancel`);
    expect(cancel.statusCode).toBe(201);
    await call(maker, 'POST', '/market/orders', {
      market: 'trxusdt',
      side: 'buy',
      volume: '1000',
      price: '0.09',
    });
    const moved = await call(wes, 'POST', '/account/swaps', {
      from_currency: 'trx',
      to_currency: 'usdt',
      amount: '10',
      quote_id: fresh.quote_id,
    });
    expect(moved.json().errors).toEqual(['account.swap.quote_expired']);
    expect(balance(wes, 'trx').balance).toBe(50n * TRX);

    // Valuation: TRX is worth its best bid in USDT; the line chart has one point per day.
    const pie = (await call(wes, 'GET', '/account/balances/pie_chart')).json();
    expect(pie).toEqual(
      expect.arrayContaining([
        { currency: 'trx', total: '50', value: '4.5' },
        { currency: 'usdt', total: '4.99', value: '4.99' },
      ]),
    );
    const line = (await call(wes, 'GET', '/account/balances/line_chart')).json();
    expect(line).toHaveLength(7);
    expect(line[6].value).toBe('9.49');
    const rows = (await call(wes, 'GET', '/account/balances')).json();
    expect(rows.find((r: { currency: string }) => r.currency === 'trx')).toMatchObject({
      usdt_price: '0.09',
      name: 'TRON',
    });
    expect(rows.find((r: { currency: string }) => r.currency === 'eur').usdt_price).toBe('1');

    const bad = await call(wes, 'GET', '/account/amount_quote?from_currency=trx&to_currency=trx&amount=1');
    expect(bad.json().errors).toEqual(['account.swap.invalid_pair']);
    const noPrice = await call(
      wes,
      'GET',
      '/account/amount_quote?from_currency=eur&to_currency=trx&amount=1',
    );
    expect(noPrice.json().errors).toEqual(['account.swap.no_price']);
  });

  it('a swap the desk cannot cover is refused, kept as rejected, and changes no balance', async () => {
    // The book's best TRX bid is 0.09 USDT (left by the test above); the desk holds under 1,000 USDT.
    const big = await member('yan@wallet.test');
    await credit(big, 'trx', 20_000n * TRX);
    const quote = (
      await call(big, 'GET', '/account/amount_quote?from_currency=trx&to_currency=usdt&amount=20000')
    ).json();
    expect(quote).toMatchObject({ price: '0.09', fee: '3.6', total: '1796.4' });
    const res = await call(big, 'POST', '/account/swaps', {
      from_currency: 'trx',
      to_currency: 'usdt',
      amount: '20000',
      quote_id: quote.quote_id,
    });
    expect(res.json().errors).toEqual(['account.swap.insufficient_liquidity']);
    expect(balance(big, 'trx')).toEqual({ balance: 20_000n * TRX, locked: 0n });
    expect(balance(big, 'usdt').balance).toBe(0n);
    const [rejected] = (await call(big, 'GET', '/account/swaps')).json();
    expect(rejected).toMatchObject({ state: 'rejected', price: '20000', total: '0' });
  });

  it('gives every concurrent quote request its own quote, and executes each quote once however often it is sent', async () => {
    await swapDesk('ada@wallet.test');
    const zoe = await member('zoe@wallet.test');
    await credit(zoe, 'trx', 100n * TRX);

    const quotes = await Promise.all(
      Array.from({ length: 20 }, () =>
        call(zoe, 'GET', '/account/amount_quote?from_currency=trx&to_currency=usdt&amount=1'),
      ),
    );
    const ids = quotes.map((q) => q.json().quote_id as string);
    expect(new Set(ids).size).toBe(20);

    // Five quotes, each sent twice at once: five swaps, five refusals.
    const executions = await Promise.all(
      ids.slice(0, 5).flatMap((quote_id) =>
        [1, 2].map(() =>
          call(zoe, 'POST', '/account/swaps', {
            from_currency: 'trx',
            to_currency: 'usdt',
            amount: '1',
            quote_id,
          }),
        ),
      ),
    );
    const statuses = executions.map((e) => e.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(executions.filter((e) => e.statusCode === 422).map((e) => e.json().errors)).toEqual(
      Array.from({ length: 5 }, () => ['account.swap.quote_used']),
    );
    expect(new Set(executions.filter((e) => e.statusCode === 201).map((e) => e.json().id)).size).toBe(5);
    expect((await call(zoe, 'GET', '/account/swaps?limit=100')).headers.total).toBe('5');
    expect(balance(zoe, 'trx').balance).toBe(95n * TRX);
  });

  it('swaps at the exact rate of the book, rounded once, down, at the end (1 BTC = 65025 USDT)', async () => {
    const BTC = 100_000_000n;
    const seller = await member('sam@wallet.test');
    await credit(seller, 'btc', BTC);
    const ask = await call(seller, 'POST', '/market/orders', {
      market: 'btcusdt',
      side: 'sell',
      volume: '0.5',
      price: '65025',
    });
    expect(ask.statusCode).toBe(201);
    await w.t.deps.core.sequencer.submit({ type: 'FundLiquidity', currency: 'btc', amount: BTC });

    const buyer = await member('uma@wallet.test');
    await credit(buyer, 'usdt', 1_000n * 1_000_000n);
    const quote = (
      await call(buyer, 'GET', '/account/amount_quote?from_currency=usdt&to_currency=btc&amount=650.25')
    ).json();
    // 650.25 USDT at 1/65025 is 0.01 BTC exactly (not 650.25 × 0.00001537 = 0.00999434); the 0.1% usdt swap
    // fee is 0.00001 BTC.
    expect(quote).toMatchObject({ price: '0.000015378700499807', fee: '0.00001', total: '0.00999' });
    const done = await call(buyer, 'POST', '/account/swaps', {
      from_currency: 'usdt',
      to_currency: 'btc',
      amount: '650.25',
      quote_id: quote.quote_id,
    });
    expect(done.statusCode).toBe(201);
    expect(done.json()).toMatchObject({ total: '0.00999', currency: 'btc', state: 'completed' });
    expect(balance(buyer, 'btc').balance).toBe(999_000n);
    expect(balance(buyer, 'usdt').balance).toBe(1_000_000_000n - 650_250_000n);
  });
});
