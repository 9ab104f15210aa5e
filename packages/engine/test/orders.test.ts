import { describe, expect, it } from 'vitest';
import type { OrderCancelled, Trade } from '../src/index.ts';
import { Engine, Rejection } from '../src/index.ts';
import { AT, BTC, fund, fundedEngine, limit, mkt, ok, rejects, testConfig, trades, USDT } from './helpers.ts';

// btcusdt: price tick 0.01 USDT, volume step 0.0001 BTC; quote units = price · volume; base units = volume · 10^4.
const setup = () => fundedEngine();

describe('placing limit orders', () => {
  it('rests a non-crossing buy with state wait and holds price · volume', () => {
    const e = setup();
    const r = ok(e, limit(1, 'buy', 3_000_000n, 5_000n)); // 0.5 BTC at 30,000.00
    expect(r.orderId).toBe(1);
    expect(r.events.map((x) => x.type)).toEqual(['OrderOpened', 'BalanceChanged']);
    expect(r.orders[0]).toMatchObject({
      id: 1,
      state: 'wait',
      locked: 15_000n * USDT,
      remainingVolume: 5_000n,
    });
    expect(e.balance(1, 'usdt')).toEqual({ balance: 985_000n * USDT, locked: 15_000n * USDT });
    expect(r.postings).toEqual([
      { account: 'u:1:main', currency: 'usdt', amount: -15_000n * USDT, cause: 'order', causeId: 1 },
      { account: 'u:1:locked', currency: 'usdt', amount: 15_000n * USDT, cause: 'order', causeId: 1 },
    ]);
    expect(e.depth('btcusdt').bids).toEqual([[3_000_000n, 5_000n]]);
  });

  it('rests a sell holding volume in base units', () => {
    const e = setup();
    ok(e, limit(2, 'sell', 3_000_000n, 5_000n));
    expect(e.balance(2, 'btc')).toEqual({ balance: 950_000_000n, locked: 50_000_000n });
  });

  it('holds price · volume · 10^k when the precisions leave room (ethusdt)', () => {
    const e = setup();
    fund(e, 1, 'usdt', 0n + 1n);
    // ethusdt: price 0.01, amount 0.01 → quote units = price · volume · 100
    ok(e, limit(1, 'buy', 200_000n, 150n, 'ethusdt')); // 1.5 ETH at 2,000.00 = 3,000 USDT
    expect(e.balance(1, 'usdt').locked).toBe(3_000n * USDT);
  });

  it('trades at the maker price, charges maker/taker fees on what each side receives', () => {
    const e = setup();
    ok(e, limit(2, 'sell', 3_000_000n, 5_000n));
    const r = ok(e, limit(1, 'buy', 3_000_100n, 2_000n)); // limit 30,001.00, fills at 30,000.00
    const [t] = trades(r) as Trade[];
    expect(t).toMatchObject({
      id: 1,
      price: 3_000_000n,
      volume: 2_000n,
      total: 6_000n * USDT,
      makerOrderId: 1,
      takerOrderId: 2,
      makerUser: 2,
      takerUser: 1,
      takerSide: 'buy',
      makerFee: 6n * USDT, // 0.1% of 6,000 USDT
      takerFee: 20_000n, // 0.1% of 0.2 BTC
    });
    expect(r.events.map((x) => x.type)).toEqual([
      'OrderOpened',
      'Trade',
      'OrderDone',
      'BalanceChanged',
      'BalanceChanged',
      'BalanceChanged',
      'BalanceChanged',
    ]);
    // Buyer: paid 6,000 USDT, price improvement (0.2 USDT) released, nothing left locked.
    expect(e.balance(1, 'usdt')).toEqual({ balance: 994_000n * USDT, locked: 0n });
    expect(e.balance(1, 'btc')).toEqual({ balance: 10n * BTC + 20_000_000n - 20_000n, locked: 0n });
    expect(e.balance(2, 'usdt')).toEqual({
      balance: 1_000_000n * USDT + 6_000n * USDT - 6n * USDT,
      locked: 0n,
    });
    expect(e.balance(2, 'btc')).toEqual({ balance: 950_000_000n, locked: 30_000_000n });
    expect(e.systemBalance('fees', 'usdt')).toBe(6n * USDT);
    expect(e.systemBalance('fees', 'btc')).toBe(20_000n);
    const maker = r.orders.find((o) => o.id === 1);
    expect(maker).toMatchObject({
      state: 'pending',
      executedVolume: 2_000n,
      remainingVolume: 3_000n,
      tradesCount: 1,
    });
    expect(maker?.fundsReceived).toBe(6_000n * USDT);
    // Every posting names its cause: the taker's hold (its order), the exchange (the trade), each fee (the trade).
    const q = 6_000n * USDT;
    expect(r.postings).toEqual([
      { account: 'u:1:main', currency: 'usdt', amount: -6_000_200_000n, cause: 'order', causeId: 2 },
      { account: 'u:1:locked', currency: 'usdt', amount: 6_000_200_000n, cause: 'order', causeId: 2 },
      { account: 'u:1:locked', currency: 'usdt', amount: -q, cause: 'trade', causeId: 1 },
      { account: 'u:1:locked', currency: 'usdt', amount: -200_000n, cause: 'trade', causeId: 1 },
      { account: 'u:1:main', currency: 'usdt', amount: 200_000n, cause: 'trade', causeId: 1 },
      { account: 'u:2:locked', currency: 'btc', amount: -20_000_000n, cause: 'trade', causeId: 1 },
      { account: 'u:1:main', currency: 'btc', amount: 20_000_000n, cause: 'trade', causeId: 1 },
      { account: 'u:2:main', currency: 'usdt', amount: q, cause: 'trade', causeId: 1 },
      { account: 'u:1:main', currency: 'btc', amount: -20_000n, cause: 'fee', causeId: 1 },
      { account: 'fees', currency: 'btc', amount: 20_000n, cause: 'fee', causeId: 1 },
      { account: 'u:2:main', currency: 'usdt', amount: -6n * USDT, cause: 'fee', causeId: 1 },
      { account: 'fees', currency: 'usdt', amount: 6n * USDT, cause: 'fee', causeId: 1 },
    ]);
    const taker = r.orders.find((o) => o.id === 2);
    expect(taker).toMatchObject({
      state: 'done',
      locked: 0n,
      fundsSpent: 6_000n * USDT,
      fundsReceived: 20_000_000n,
    });
  });

  it('follows price-time priority across levels and within a level', () => {
    const e = setup();
    ok(e, limit(2, 'sell', 101n, 10n)); // id 1
    ok(e, limit(3, 'sell', 100n, 10n)); // id 2
    ok(e, limit(2, 'sell', 100n, 10n)); // id 3
    ok(e, limit(3, 'sell', 102n, 10n)); // id 4
    const r = ok(e, limit(1, 'buy', 101n, 35n));
    expect(trades(r).map((t) => [t.makerOrderId, t.price, t.volume])).toEqual([
      [2, 100n, 10n],
      [3, 100n, 10n],
      [1, 101n, 10n],
    ]);
    // remainder rests at the taker's limit, partially filled
    expect(e.order(5)).toMatchObject({ state: 'pending', remainingVolume: 5n, locked: 505n });
    expect(e.bookOrderIds('btcusdt', 'sell')).toEqual([4]);
    expect(e.bookOrderIds('btcusdt', 'buy')).toEqual([5]);
  });

  it('a sell taker gets the (higher) bid price; no price-improvement release for sells', () => {
    const e = setup();
    ok(e, limit(1, 'buy', 105n, 10n));
    const r = ok(e, limit(2, 'sell', 100n, 10n));
    expect(trades(r)[0]).toMatchObject({ price: 105n, total: 1050n });
    expect(e.balance(2, 'btc').locked).toBe(0n);
  });

  it('rounds fees up so receivers get the floor and every unit is accounted', () => {
    const e = setup();
    ok(e, limit(2, 'sell', 1n, 1n)); // 0.01 USDT/BTC, 0.0001 BTC: quote = 1 unit
    const r = ok(e, limit(1, 'buy', 1n, 1n));
    const [t] = trades(r);
    expect(t?.makerFee).toBe(1n); // ceil(1 · 0.001) = 1: the seller receives 0
    expect(t?.takerFee).toBe(10n); // ceil(10,000 · 0.001) = 10
    expect(e.systemBalance('fees', 'usdt')).toBe(1n);
    expect(e.balance(2, 'usdt').balance).toBe(1_000_000n * USDT);
  });

  it('assigns sequential order and trade ids; rejected orders consume none', () => {
    const e = setup();
    expect(ok(e, limit(2, 'sell', 100n, 1n)).orderId).toBe(1);
    rejects(e, limit(2, 'sell', 0n, 1n), Rejection.NonPositivePrice);
    expect(ok(e, limit(2, 'sell', 100n, 1n)).orderId).toBe(2);
    const r = ok(e, limit(1, 'buy', 100n, 2n));
    expect(r.orderId).toBe(3);
    expect(trades(r).map((t) => t.id)).toEqual([1, 2]);
  });

  it('emits one BalanceChanged per touched balance with final values', () => {
    const e = setup();
    ok(e, limit(2, 'sell', 100n, 1n));
    ok(e, limit(2, 'sell', 100n, 1n));
    const r = ok(e, limit(1, 'buy', 100n, 2n));
    const bc = r.events.filter((x) => x.type === 'BalanceChanged');
    expect(bc).toHaveLength(4);
    for (const x of bc)
      expect({ balance: x.balance, locked: x.locked }).toEqual(e.balance(x.user, x.currency));
  });
});

describe('market orders', () => {
  it('market buy holds the cost of walking the book and ends done when filled', () => {
    const e = setup();
    ok(e, limit(2, 'sell', 100n, 10n));
    ok(e, limit(2, 'sell', 110n, 10n));
    const r = ok(e, mkt(1, 'buy', 15n));
    expect(r.events[0]).toMatchObject({ type: 'OrderOpened', locked: 100n * 10n + 110n * 5n });
    expect(trades(r).map((t) => [t.price, t.volume])).toEqual([
      [100n, 10n],
      [110n, 5n],
    ]);
    expect(r.orders.find((o) => o.id === 3)).toMatchObject({
      state: 'done',
      locked: 0n,
      executedVolume: 15n,
    });
    expect(e.balance(1, 'usdt').locked).toBe(0n);
  });

  it('market buy: unfilled remainder is cancelled and the unused hold released (self-trade)', () => {
    const e = setup();
    ok(e, limit(2, 'sell', 100n, 5n));
    ok(e, limit(1, 'sell', 101n, 5n)); // own order behind
    const before = e.balance(1, 'usdt').balance;
    const r = ok(e, mkt(1, 'buy', 10n));
    expect(r.events[0]).toMatchObject({ type: 'OrderOpened', locked: 500n + 505n });
    const c = r.events.find((x) => x.type === 'OrderCancelled') as OrderCancelled;
    expect(c).toMatchObject({ orderId: 3, reason: 'self_trade' });
    expect(r.orders.find((o) => o.id === 3)).toMatchObject({
      state: 'cancel',
      executedVolume: 5n,
      locked: 0n,
    });
    expect(e.balance(1, 'usdt')).toEqual({ balance: before - 500n, locked: 0n });
    expect(e.order(2)).toMatchObject({ state: 'wait' }); // own resting order stays
  });

  it('market order larger than the book fills what is there and cancels the rest', () => {
    const e = setup();
    ok(e, limit(1, 'buy', 100n, 5n));
    const r = ok(e, mkt(2, 'sell', 8n));
    expect(r.orders.find((o) => o.id === 2)).toMatchObject({
      state: 'cancel',
      executedVolume: 5n,
      locked: 0n,
    });
    expect(r.events.find((x) => x.type === 'OrderCancelled')).toMatchObject({ reason: 'unfilled' });
    expect(e.balance(2, 'btc')).toEqual({ balance: 10n * BTC - 5n * 10_000n, locked: 0n });
  });

  it('market orders never rest', () => {
    const e = setup();
    ok(e, limit(1, 'buy', 100n, 5n));
    ok(e, mkt(2, 'sell', 8n));
    expect(e.bookOrderIds('btcusdt', 'sell')).toEqual([]);
    expect(e.openOrders(2)).toEqual([]);
  });
});

describe('self-trade prevention', () => {
  it('cancels the incoming order when it would cross its own resting order', () => {
    const e = setup();
    ok(e, limit(1, 'sell', 100n, 5n));
    ok(e, limit(2, 'sell', 101n, 5n));
    const r = ok(e, limit(1, 'buy', 102n, 10n));
    expect(trades(r)).toEqual([]);
    expect(r.orders[0]).toMatchObject({ id: 3, state: 'cancel', locked: 0n });
    expect(e.bookOrderIds('btcusdt', 'sell')).toEqual([1, 2]);
    expect(e.balance(1, 'usdt').locked).toBe(0n);
  });

  it('keeps fills made before meeting the own order', () => {
    const e = setup();
    ok(e, limit(2, 'sell', 99n, 3n));
    ok(e, limit(1, 'sell', 100n, 5n));
    const r = ok(e, limit(1, 'buy', 102n, 10n));
    expect(trades(r).map((t) => t.volume)).toEqual([3n]);
    expect(r.orders.find((o) => o.id === 3)).toMatchObject({
      state: 'cancel',
      executedVolume: 3n,
      locked: 0n,
    });
    expect(e.order(2)).toBeDefined();
  });
});

describe('cancelling', () => {
  it('releases exactly what is left locked', () => {
    const e = setup();
    ok(e, limit(1, 'buy', 200n, 10n));
    ok(e, limit(2, 'sell', 150n, 4n)); // fills 4 at 200
    expect(e.balance(1, 'usdt').locked).toBe(1200n);
    const r = ok(e, { type: 'CancelOrder', user: 1, orderId: 1, at: AT });
    expect(r.events.map((x) => x.type)).toEqual(['OrderCancelled', 'BalanceChanged']);
    expect(r.orders[0]).toMatchObject({ state: 'cancel', executedVolume: 4n, locked: 0n });
    expect(r.postings).toEqual([
      { account: 'u:1:locked', currency: 'usdt', amount: -1200n, cause: 'order', causeId: 1 },
      { account: 'u:1:main', currency: 'usdt', amount: 1200n, cause: 'order', causeId: 1 },
    ]);
    expect(e.balance(1, 'usdt').locked).toBe(0n);
    expect(e.depth('btcusdt').bids).toEqual([]);
  });

  it("refuses unknown, closed and other users' orders", () => {
    const e = setup();
    ok(e, limit(1, 'buy', 200n, 10n));
    rejects(e, { type: 'CancelOrder', user: 2, orderId: 1, at: AT }, Rejection.OrderNotFound);
    rejects(e, { type: 'CancelOrder', user: 1, orderId: 99, at: AT }, Rejection.OrderNotFound);
    ok(e, { type: 'CancelOrder', user: 1, orderId: 1, at: AT });
    rejects(e, { type: 'CancelOrder', user: 1, orderId: 1, at: AT }, Rejection.OrderNotFound);
    rejects(e, { type: 'CancelOrder', user: -1, orderId: 1, at: AT }, Rejection.InvalidUser);
  });

  it('CancelAll cancels the open orders of a user, filtered by market and side, in id order', () => {
    const e = setup();
    ok(e, limit(1, 'buy', 100n, 1n)); // 1
    ok(e, limit(1, 'sell', 200n, 1n)); // 2
    ok(e, limit(1, 'buy', 100n, 1n, 'ethusdt')); // 3
    ok(e, limit(2, 'buy', 100n, 1n)); // 4
    ok(e, limit(1, 'buy', 101n, 1n)); // 5
    const r1 = ok(e, { type: 'CancelAll', user: 1, market: 'btcusdt', side: 'buy', at: AT });
    expect(r1.orders.map((o) => o.id)).toEqual([1, 5]);
    const r2 = ok(e, { type: 'CancelAll', user: 1, at: AT });
    expect(r2.orders.map((o) => o.id)).toEqual([2, 3]);
    expect(e.openOrders(2).map((o) => o.id)).toEqual([4]);
    expect(ok(e, { type: 'CancelAll', user: 9, at: AT }).events).toEqual([]);
    rejects(e, { type: 'CancelAll', user: 1, market: 'nope', at: AT }, Rejection.MarketNotFound);
    rejects(e, { type: 'CancelAll', user: 1, side: 'up' as 'buy', at: AT }, Rejection.InvalidSide);
  });
});

describe('fees by market and trading level', () => {
  it('uses the most specific rule; rates are fixed at placement', () => {
    const e = new Engine(
      testConfig({
        fees: {
          defaultMaker: 2000n,
          defaultTaker: 3000n,
          rules: [
            { level: 1, maker: 500n, taker: 700n },
            { market: 'btcusdt', level: 1, maker: 0n, taker: 400n },
          ],
        },
        tradingLevels: [[1, 1]],
      }),
    );
    fund(e, 1, 'usdt', 10n ** 12n);
    fund(e, 2, 'btc', 10n ** 12n);
    fund(e, 1, 'eth', 10n ** 20n);
    expect(ok(e, limit(1, 'buy', 100n, 1n)).orders[0]).toMatchObject({ makerFee: 0n, takerFee: 400n });
    expect(ok(e, limit(1, 'sell', 900n, 1n, 'ethusdt')).orders[0]).toMatchObject({
      makerFee: 500n,
      takerFee: 700n,
    });
    expect(ok(e, limit(2, 'sell', 900n, 1n)).orders[0]).toMatchObject({ makerFee: 2000n, takerFee: 3000n });
    ok(e, { type: 'SetTradingLevel', user: 2, level: 1, at: AT });
    expect(ok(e, limit(2, 'sell', 901n, 1n)).orders[0]).toMatchObject({ makerFee: 0n, takerFee: 400n });
    ok(e, { type: 'SetFeeRule', rule: { market: 'btcusdt', level: 1, maker: 100n, taker: 200n }, at: AT });
    expect(ok(e, limit(2, 'sell', 902n, 1n)).orders[0]).toMatchObject({ makerFee: 100n, takerFee: 200n });
    expect(e.order(3)).toMatchObject({ makerFee: 2000n });
    rejects(e, { type: 'SetFeeRule', rule: { maker: -1n, taker: 0n }, at: AT }, Rejection.InvalidFeeRate);
    rejects(
      e,
      { type: 'SetFeeRule', rule: { maker: 0n, taker: 1_000_001n }, at: AT },
      Rejection.InvalidFeeRate,
    );
    rejects(
      e,
      { type: 'SetFeeRule', rule: { market: 'x', maker: 0n, taker: 0n }, at: AT },
      Rejection.MarketNotFound,
    );
    rejects(
      e,
      { type: 'SetFeeRule', rule: { level: -1, maker: 0n, taker: 0n }, at: AT },
      Rejection.InvalidTradingLevel,
    );
    rejects(e, { type: 'SetTradingLevel', user: 1, level: 1.5, at: AT }, Rejection.InvalidTradingLevel);
    rejects(e, { type: 'SetTradingLevel', user: 1.5, level: 1, at: AT }, Rejection.InvalidUser);
  });
});

describe('market state', () => {
  it('a disabled market refuses orders but allows cancels', () => {
    const e = setup();
    ok(e, limit(1, 'buy', 100n, 1n));
    ok(e, { type: 'SetMarketState', market: 'btcusdt', state: 'disabled', at: AT });
    rejects(e, limit(1, 'buy', 100n, 1n), Rejection.MarketDisabled);
    ok(e, { type: 'CancelOrder', user: 1, orderId: 1, at: AT });
    ok(e, { type: 'SetMarketState', market: 'btcusdt', state: 'enabled', at: AT });
    ok(e, limit(1, 'buy', 100n, 1n));
    rejects(e, { type: 'SetMarketState', market: 'x', state: 'enabled', at: AT }, Rejection.MarketNotFound);
    rejects(
      e,
      { type: 'SetMarketState', market: 'btcusdt', state: 'on' as 'enabled', at: AT },
      Rejection.InvalidMarketState,
    );
  });
});
