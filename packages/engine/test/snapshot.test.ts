import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Command, Engine, type EngineSnapshot } from '../src/index.ts';
import { diffConfig, fundingCommands, streamArb } from './gen.ts';
import { AT, assertConserved, fund, limit, ok, testConfig } from './helpers.ts';

/** Round-trip through JSON with bigints as strings, like a database would. */
function persist(s: EngineSnapshot): EngineSnapshot {
  const json = JSON.stringify(s, (_, v) => (typeof v === 'bigint' ? `${v}n` : v));
  return JSON.parse(json, (_, v) =>
    typeof v === 'string' && /^-?\d+n$/.test(v) ? BigInt(v.slice(0, -1)) : v,
  );
}

describe('snapshot / restore', () => {
  it('continuing from a restored snapshot gives identical results (random streams, any split point)', () => {
    fc.assert(
      fc.property(streamArb(20, 200), fc.nat(), fc.boolean(), (cmds, k, shuffle) => {
        const all: Command[] = [...fundingCommands(), ...cmds];
        const split = k % (all.length + 1);
        const a = new Engine(diffConfig);
        const b = new Engine(diffConfig);
        for (const c of all.slice(0, split)) {
          a.apply(c);
          b.apply(c);
        }
        const snap = persist(b.snapshot());
        // a database returns open orders in any order: FIFO must come from seq
        if (shuffle) snap.state.orders.reverse();
        const c = Engine.restore(snap);
        expect(c.snapshot()).toEqual(a.snapshot());
        for (const cmd of all.slice(split)) expect(c.apply(cmd)).toEqual(a.apply(cmd));
        expect(c.snapshot()).toEqual(a.snapshot());
        assertConserved(c);
      }),
      { seed: 99, numRuns: 150 },
    );
  });

  it('keeps untriggered stops, trigger state, last prices, withdrawals, levels, fee rules and market states', () => {
    const e = new Engine(testConfig());
    fund(e, 1, 'usdt', 10n ** 12n);
    fund(e, 2, 'btc', 10n ** 10n);
    ok(e, limit(2, 'sell', 100n, 1n));
    ok(e, limit(1, 'buy', 100n, 1n)); // last price 100
    ok(e, {
      type: 'PlaceOrder',
      user: 2,
      market: 'btcusdt',
      side: 'sell',
      ordType: 'stop_loss_limit',
      stopPrice: 90n,
      price: 89n,
      volume: 3n,
      at: AT,
    });
    ok(e, { type: 'HoldWithdrawal', user: 1, currency: 'usdt', amount: 5n, withdrawalId: 'w', at: AT });
    ok(e, { type: 'SetTradingLevel', user: 2, level: 2, at: AT });
    ok(e, { type: 'SetFeeRule', rule: { level: 2, maker: 1n, taker: 2n }, at: AT });
    ok(e, { type: 'SetMarketState', market: 'ethbtc', state: 'disabled', at: AT });
    ok(e, { type: 'CardTopUp', user: 1, amount: 7n, fee: 1n, at: AT });
    ok(e, { type: 'FundLiquidity', currency: 'btc', amount: 9n, at: AT });
    const r = Engine.restore(persist(e.snapshot()));
    expect(r.snapshot()).toEqual(e.snapshot());
    expect(r.lastPrice('btcusdt')).toBe(100n);
    expect(r.order(3)).toMatchObject({ ordType: 'stop_loss_limit', triggeredAt: null });
    expect(r.apply({ type: 'SettleWithdrawal', withdrawalId: 'w', fee: 1n, at: AT }).ok).toBe(true);
    expect(r.apply(limit(2, 'sell', 200n, 1n)).orders[0]).toMatchObject({ makerFee: 1n, takerFee: 2n });
    expect(r.apply(limit(2, 'sell', 200n, 1n, 'ethbtc')).code).toBe('market.market.not_enabled');
    // the stop still fires on the restored engine
    ok(r, limit(2, 'sell', 90n, 1n));
    const t = ok(r, limit(1, 'buy', 90n, 1n));
    expect(t.events.some((x) => x.type === 'OrderTriggered')).toBe(true);
  });

  it('refuses inconsistent state', () => {
    const e = new Engine(testConfig());
    fund(e, 1, 'usdt', 1000n);
    ok(e, limit(1, 'buy', 10n, 10n));
    const s = e.snapshot();
    const bad = structuredClone(s);
    const b0 = bad.state.balances[0];
    if (b0 !== undefined) b0.locked += 1n;
    expect(() => Engine.restore(bad)).toThrow(/locked does not match/);
    const bad2 = structuredClone(s);
    const o0 = bad2.state.orders[0];
    if (o0 !== undefined) o0.remainingVolume = 0n;
    expect(() => Engine.restore(bad2)).toThrow(/inconsistent volumes/);
    const bad3 = structuredClone(s);
    bad3.state.nextOrderId = 1;
    expect(() => Engine.restore(bad3)).toThrow(/beyond counters/);
  });
});

describe('config validation', () => {
  it('rejects markets whose precisions do not convert exactly, and other inconsistencies', () => {
    const base = testConfig();
    const m = base.markets[0];
    if (m === undefined) throw new Error('no market');
    const bad = (over: object) => ({ ...base, markets: [{ ...m, ...over }] });
    expect(() => new Engine(bad({ pricePrecision: 4, amountPrecision: 3 }))).toThrow(
      /exceeds usdt precision/,
    );
    expect(() => new Engine(bad({ amountPrecision: 9 }))).toThrow();
    expect(() => new Engine(bad({ quote: 'eur' }))).toThrow(/unknown currency/);
    expect(() => new Engine(bad({ minPrice: 0n }))).toThrow(/price bounds/);
    expect(() => new Engine(bad({ minAmount: 0n }))).toThrow(/minAmount/);
    expect(() => new Engine({ ...base, fees: { defaultMaker: 2_000_000n } })).toThrow(/fee rate/);
    expect(
      () => new Engine({ ...base, currencies: [...base.currencies, { id: 'btc', precision: 8 }] }),
    ).toThrow(/duplicate/);
  });
});
