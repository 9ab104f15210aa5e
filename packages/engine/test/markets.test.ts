import { describe, expect, it } from 'vitest';
import { type Command, Engine, type MarketConfig, Rejection } from '../src/index.ts';
import { AT, fund, limit, ok, rejects, testConfig, trades } from './helpers.ts';

/** eth/usdt at run time: price 0.01 USDT, amount 0.01 ETH (qm = 100, bm = 10^16). */
const ETHUSDT2: MarketConfig = {
  id: 'ethusdt2',
  base: 'eth',
  quote: 'usdt',
  pricePrecision: 2,
  amountPrecision: 2,
  minPrice: 1n,
  maxPrice: 10_000_000n,
  minAmount: 1n,
  state: 'enabled',
};
const add = (market: Partial<MarketConfig> = {}, fees?: { maker: bigint; taker: bigint }): Command => ({
  type: 'AddMarket',
  market: { ...ETHUSDT2, ...market },
  ...(fees ? { fees } : {}),
  at: AT,
});

function funded(): Engine {
  const e = new Engine(testConfig());
  fund(e, 1, 'usdt', 10_000_000_000n);
  fund(e, 2, 'eth', 10n ** 19n);
  return e;
}

describe('markets added and changed while the engine runs', () => {
  it('a market added by command trades at once, with its own fee rule, and says so in events', () => {
    const e = funded();
    const r = ok(e, add({}, { maker: 0n, taker: 2_000n }));
    expect(r.events).toEqual([
      { type: 'MarketAdded', market: ETHUSDT2, at: AT },
      { type: 'FeeRuleSet', rule: { market: 'ethusdt2', maker: 0n, taker: 2_000n }, at: AT },
    ]);
    ok(e, limit(2, 'sell', 150_000n, 100n, 'ethusdt2'));
    const t = trades(ok(e, limit(1, 'buy', 150_000n, 100n, 'ethusdt2')));
    // 1 ETH at 1500 USDT: the taker (buyer) pays 0.2% of the 1 ETH received, the maker nothing.
    expect(t).toEqual([
      expect.objectContaining({ price: 150_000n, volume: 100n, total: 1_500_000_000n, makerFee: 0n }),
    ]);
    expect(t[0]?.takerFee).toBe(2n * 10n ** 15n);
    expect(e.lastPrice('ethusdt2')).toBe(150_000n);
  });

  it('refuses a taken id or a config that breaks a market rule, changing nothing', () => {
    const e = funded();
    rejects(e, add({ id: 'btcusdt' }), Rejection.MarketExists);
    rejects(e, add({ base: 'xrp' }), Rejection.InvalidMarket);
    rejects(e, add({ quote: 'eth' }), Rejection.InvalidMarket);
    rejects(e, add({ pricePrecision: 5 }), Rejection.InvalidMarket); // 5 + 2 > usdt's 6
    rejects(e, add({ minPrice: 0n }), Rejection.InvalidMarket);
    rejects(e, add({ maxPrice: 0n }), Rejection.InvalidMarket);
    rejects(e, add({ minAmount: 0n }), Rejection.InvalidMarket);
    rejects(e, add({ minAmount: 1 as unknown as bigint }), Rejection.InvalidMarket);
    rejects(e, add({ state: 'on' as 'enabled' }), Rejection.InvalidMarket);
    rejects(e, add({}, { maker: -1n, taker: 0n }), Rejection.InvalidFeeRate);
    rejects(
      e,
      { type: 'AddMarket', market: null as unknown as MarketConfig, at: AT },
      Rejection.InvalidCommand,
    );
    rejects(e, limit(1, 'buy', 100n, 1n, 'ethusdt2'), Rejection.MarketNotFound);
  });

  it('changes bounds and state for orders placed afterwards; resting orders stay', () => {
    const e = funded();
    ok(e, limit(1, 'buy', 100n, 5n));
    const r = ok(e, { type: 'UpdateMarket', market: 'btcusdt', minAmount: 10n, state: 'disabled', at: AT });
    expect(r.events).toEqual([
      {
        type: 'MarketUpdated',
        market: expect.objectContaining({ id: 'btcusdt', minAmount: 10n, state: 'disabled' }),
        at: AT,
      },
    ]);
    rejects(e, limit(1, 'buy', 100n, 10n), Rejection.MarketDisabled);
    expect(e.order(1)).toMatchObject({ state: 'wait' });
    ok(e, { type: 'UpdateMarket', market: 'btcusdt', state: 'enabled', at: AT });
    rejects(e, limit(1, 'buy', 100n, 9n), Rejection.VolumeTooSmall);
    ok(e, limit(1, 'buy', 100n, 10n));
    ok(e, { type: 'UpdateMarket', market: 'btcusdt', minPrice: 50n, maxPrice: 200n, at: AT });
    rejects(e, limit(1, 'buy', 201n, 10n), Rejection.PriceOutOfRange);
    const U = (o: object) => ({ type: 'UpdateMarket', market: 'btcusdt', at: AT, ...o }) as Command;
    rejects(e, U({ market: 'nope' }), Rejection.MarketNotFound);
    rejects(e, U({ minPrice: 300n }), Rejection.InvalidMarket); // above the max
    rejects(e, U({ minAmount: 0n }), Rejection.InvalidMarket);
    rejects(e, U({ state: 'hidden' }), Rejection.InvalidMarketState);
    rejects(e, U({ minAmount: 20n, fees: { maker: 0n, taker: 1_000_001n } }), Rejection.InvalidFeeRate);
  });

  it('changes a market and its fees in one command; the next order takes the new rates', () => {
    const e = funded();
    const resting = ok(e, limit(1, 'buy', 100n, 1n)).orderId as number;
    const r = ok(e, {
      type: 'UpdateMarket',
      market: 'btcusdt',
      minAmount: 2n,
      fees: { maker: 10n, taker: 20n },
      at: AT,
    });
    expect(r.events.map((x) => x.type)).toEqual(['MarketUpdated', 'FeeRuleSet']);
    expect(ok(e, limit(1, 'buy', 100n, 2n)).orders[0]).toMatchObject({ makerFee: 10n, takerFee: 20n });
    expect(e.order(resting)).toMatchObject({ makerFee: 1000n, takerFee: 1000n });
  });

  it('SetMarketState and SetFeeRule say what they changed', () => {
    const e = funded();
    const s = ok(e, { type: 'SetMarketState', market: 'ethbtc', state: 'disabled', at: AT });
    expect(s.events).toEqual([
      { type: 'MarketUpdated', market: expect.objectContaining({ id: 'ethbtc', state: 'disabled' }), at: AT },
    ]);
    const f = ok(e, { type: 'SetFeeRule', rule: { market: 'btcusdt', maker: 5n, taker: 6n }, at: AT });
    expect(f.events).toEqual([
      { type: 'FeeRuleSet', rule: { market: 'btcusdt', maker: 5n, taker: 6n }, at: AT },
    ]);
    expect(ok(e, limit(1, 'buy', 100n, 1n)).orders[0]).toMatchObject({ makerFee: 5n, takerFee: 6n });
  });

  it('an added market, its fee rule, bounds and resting orders survive a snapshot', () => {
    const e = funded();
    ok(e, add({}, { maker: 7n, taker: 8n }));
    ok(e, { type: 'UpdateMarket', market: 'ethusdt2', minAmount: 2n, at: AT });
    ok(e, limit(2, 'sell', 150_000n, 100n, 'ethusdt2'));
    const r = Engine.restore(structuredClone(e.snapshot()));
    expect(r.snapshot()).toEqual(e.snapshot());
    rejects(r, limit(1, 'buy', 150_000n, 1n, 'ethusdt2'), Rejection.VolumeTooSmall);
    const t = trades(ok(r, limit(1, 'buy', 150_000n, 100n, 'ethusdt2')));
    expect(t).toHaveLength(1);
    expect(r.order(1)).toBeUndefined();
  });
});
