import { describe, expect, it } from 'vitest';
import { type Command, Engine, Rejection } from '../src/index.ts';
import { AT, fund, limit, ok, rejects, testConfig, trades } from './helpers.ts';

const USDT = 1_000_000n;

function setup(): Engine {
  const e = new Engine(testConfig());
  fund(e, 1, 'usdt', 1000n * USDT);
  return e;
}

describe('swap at a quoted price', () => {
  it('pays from the liquidity account, fee to fees, conserves every unit', () => {
    const e = setup();
    ok(e, { type: 'FundLiquidity', currency: 'btc', amount: 10n ** 8n, at: AT });
    // 300 USDT at 30,000 USDT/BTC → 0.01 BTC = 1,000,000 sat; price = BTC per 1 USDT · 10^8
    const price = 3333n; // 0.00003333 BTC per USDT
    const r = ok(e, {
      type: 'Swap',
      user: 1,
      from: 'usdt',
      to: 'btc',
      amount: 300n * USDT,
      mode: { price },
      feePpm: 2000n,
      at: AT,
    });
    const gross = (300n * USDT * price * 10n ** 8n) / (10n ** 6n * 10n ** 8n); // 999,900 sat
    const fee = (gross * 2000n + 999_999n) / 1_000_000n;
    expect(r.swap).toEqual({
      from: 'usdt',
      to: 'btc',
      given: 300n * USDT,
      received: gross - fee,
      fee,
      orderId: null,
    });
    expect(e.balance(1, 'btc').balance).toBe(gross - fee);
    expect(e.systemBalance('swap', 'usdt')).toBe(300n * USDT);
    expect(e.systemBalance('swap', 'btc')).toBe(10n ** 8n - gross);
    expect(e.systemBalance('fees', 'btc')).toBe(fee);
    ok(e, { type: 'DrainLiquidity', currency: 'usdt', amount: 300n * USDT, at: AT });
  });

  it('an exact rate price/scale is rounded once, at the end', () => {
    const e = setup();
    ok(e, { type: 'FundLiquidity', currency: 'btc', amount: 10n ** 8n, at: AT });
    // 650.25 USDT at 1/65025 BTC per USDT: exactly 0.01 BTC (a rate truncated to 10^-8 would give 999,434 sat).
    const r = ok(e, {
      type: 'Swap',
      user: 1,
      from: 'usdt',
      to: 'btc',
      amount: 650_250_000n,
      mode: { price: 10n, scale: 650_250n },
      feePpm: 0n,
      at: AT,
    });
    expect(r.swap).toMatchObject({ given: 650_250_000n, received: 1_000_000n, fee: 0n });
  });

  it('rejections', () => {
    const e = setup();
    ok(e, { type: 'FundLiquidity', currency: 'btc', amount: 100n, at: AT });
    const S = (o: object) =>
      ({
        type: 'Swap',
        user: 1,
        from: 'usdt',
        to: 'btc',
        amount: USDT,
        mode: { price: 3333n },
        feePpm: 0n,
        at: AT,
        ...o,
      }) as Command;
    rejects(e, S({}), Rejection.SwapInsufficientLiquidity); // needs 3333 sat
    rejects(e, S({ to: 'usdt' }), Rejection.SwapSameCurrency);
    rejects(e, S({ to: 'doge' }), Rejection.CurrencyNotFound);
    rejects(e, S({ amount: 0n }), Rejection.SwapNonPositiveAmount);
    rejects(e, S({ mode: { price: 0n } }), Rejection.SwapInvalidPrice);
    rejects(e, S({ mode: { price: 1n, scale: 0n } }), Rejection.SwapInvalidPrice);
    rejects(e, S({ feePpm: 1_000_001n }), Rejection.SwapInvalidFee);
    rejects(e, S({ feePpm: -1n }), Rejection.SwapInvalidFee);
    rejects(e, S({ amount: 1n }), Rejection.SwapAmountTooSmall); // rounds to 0 sat
    rejects(e, S({ amount: 2000n * USDT, mode: { price: 1n } }), Rejection.SwapInsufficientBalance);
    rejects(e, S({ mode: 'pool' }), Rejection.InvalidCommand);
    rejects(
      e,
      { type: 'DrainLiquidity', currency: 'btc', amount: 101n, at: AT },
      Rejection.LiquidityInsufficient,
    );
    rejects(e, { type: 'FundLiquidity', currency: 'btc', amount: 0n, at: AT }, Rejection.NonPositiveAmount);
  });
});

describe('swap against the book', () => {
  function book(): Engine {
    const e = setup();
    fund(e, 2, 'btc', 10n ** 8n);
    fund(e, 2, 'usdt', 10n ** 12n);
    ok(e, limit(2, 'sell', 3_000_000n, 10n)); // 0.001 BTC at 30,000.00
    ok(e, limit(2, 'sell', 3_100_000n, 10n));
    ok(e, limit(2, 'buy', 2_900_000n, 10n));
    return e;
  }

  it('buying the base with quote takes what the amount can pay for and keeps the rest', () => {
    const e = book();
    // 40 USDT: 30 buys 10 steps at 30,000; 10 buys 3 steps at 31,000 (9.3); 0.7 stays
    const r = ok(e, {
      type: 'Swap',
      user: 1,
      from: 'usdt',
      to: 'btc',
      amount: 40n * USDT,
      mode: 'book',
      feePpm: 5000n,
      at: AT,
    });
    expect(trades(r).map((t) => [t.price, t.volume, t.takerFee])).toEqual([
      [3_000_000n, 10n, 500n],
      [3_100_000n, 3n, 150n],
    ]);
    expect(r.swap).toEqual({
      from: 'usdt',
      to: 'btc',
      given: 39_300_000n,
      received: 130_000n - 650n,
      fee: 650n,
      orderId: 4,
    });
    expect(e.balance(1, 'usdt')).toEqual({ balance: 1000n * USDT - 39_300_000n, locked: 0n });
    expect(r.orders.find((o) => o.id === 4)).toMatchObject({
      ordType: 'market',
      state: 'done',
      takerFee: 5000n,
    });
  });

  it('selling the base: whole amount steps only', () => {
    const e = book();
    fund(e, 1, 'btc', 10n ** 6n);
    const r = ok(e, {
      type: 'Swap',
      user: 1,
      from: 'btc',
      to: 'usdt',
      amount: 50_000n,
      mode: 'book',
      feePpm: 0n,
      at: AT,
    });
    expect(r.swap).toMatchObject({ given: 50_000n, received: 14_500_000n, fee: 0n });
    const S = (o: object) =>
      ({
        type: 'Swap',
        user: 1,
        from: 'btc',
        to: 'usdt',
        amount: 10_000n,
        mode: 'book',
        feePpm: 0n,
        at: AT,
        ...o,
      }) as Command;
    rejects(e, S({ amount: 10_001n }), Rejection.SwapInvalidPrecision);
    rejects(e, S({ amount: 2n * 10n ** 6n }), Rejection.SwapInsufficientBalance);
    const only = new Engine(testConfig({ markets: testConfig().markets.slice(0, 1) }));
    rejects(only, S({ to: 'eth', from: 'usdt' }), Rejection.SwapMarketNotFound);
  });

  it('rejections: empty book, too small, disabled market', () => {
    const e = setup();
    const S = (o: object) =>
      ({
        type: 'Swap',
        user: 1,
        from: 'usdt',
        to: 'btc',
        amount: USDT,
        mode: 'book',
        feePpm: 0n,
        at: AT,
        ...o,
      }) as Command;
    rejects(e, S({}), Rejection.SwapInsufficientLiquidity);
    fund(e, 2, 'btc', 10n ** 8n);
    ok(e, limit(2, 'sell', 3_000_000n, 10n));
    rejects(e, S({ amount: 100n }), Rejection.SwapAmountTooSmall); // less than one step
    ok(e, { type: 'SetMarketState', market: 'btcusdt', state: 'disabled', at: AT });
    rejects(e, S({}), Rejection.MarketDisabled);
  });
});
