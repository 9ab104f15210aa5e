import type { Command, CommandResult, MarketConfig } from '@exchange/engine';
import { describe, expect, it } from 'vitest';
import {
  followMarkets,
  marketStatements,
  NO_MAX_PRICE,
  unstorableMarketCommand,
} from '../../src/core/market-rows.ts';
import { Units } from '../../src/core/persistence.ts';

const MARKET: MarketConfig = {
  id: 'btctrx',
  base: 'btc',
  quote: 'trx',
  pricePrecision: 2,
  amountPrecision: 4,
  minPrice: 1n,
  maxPrice: NO_MAX_PRICE,
  minAmount: 1n,
  state: 'enabled',
};
const add = (market: Partial<MarketConfig>, fees = { maker: 1000n, taker: 2000n }): Command => ({
  type: 'AddMarket',
  market: { ...MARKET, ...market },
  fees,
  at: 0,
});
const accepted = (events: CommandResult['events']): CommandResult => ({
  ok: true,
  code: null,
  ref: undefined,
  events,
  postings: [],
  orders: [],
  orderId: null,
  swap: null,
});

describe('market rows of the core', () => {
  it('refuses before the engine what the reference tables could not store', () => {
    expect(unstorableMarketCommand(add({}))).toBeNull();
    expect(unstorableMarketCommand(add({ id: 'BTC-TRX' }))).toMatch(/market id/);
    expect(unstorableMarketCommand(add({ pricePrecision: 19 }))).toMatch(/precision/);
    expect(unstorableMarketCommand(add({ minPrice: 10n ** 20n }))).toMatch(/numeric/);
    expect(unstorableMarketCommand(add({ maxPrice: 10n ** 20n }))).toMatch(/numeric/);
    expect(unstorableMarketCommand(add({}, { maker: 1_000_000n, taker: 0n }))).toMatch(/fee rate/);
    expect(
      unstorableMarketCommand({ type: 'SetFeeRule', rule: { maker: 0n, taker: 1_000_000n }, at: 0 }),
    ).toMatch(/fee rate/);
    expect(
      unstorableMarketCommand({ type: 'UpdateMarket', market: 'btctrx', minAmount: 5n, at: 0 }),
    ).toBeNull();
  });

  it('writes added and changed markets and fee rules as decimals, "no maximum" as 0', () => {
    const statements = marketStatements([
      accepted([
        { type: 'MarketAdded', market: MARKET, at: 0 },
        { type: 'FeeRuleSet', rule: { market: 'btctrx', maker: 1000n, taker: 2500n }, at: 0 },
        { type: 'MarketUpdated', market: { ...MARKET, maxPrice: 12_345n, state: 'disabled' }, at: 0 },
      ]),
    ]);
    expect(statements.map((s) => s.values)).toEqual([
      ['btctrx', 'btc', 'trx', 2, 4, '0.01', '0', '0.0001', 'enabled'],
      ['btctrx', 'any', '0.001', '0.0025'],
      ['btctrx', '0.01', '123.45', '0.0001', 'disabled'],
    ]);
    expect(statements.every((s) => s.rows === 1)).toBe(true);
  });

  it('keeps the shared market map in step with applied market events', () => {
    const units = new Units(
      new Map(),
      new Map([
        ['btc', 8],
        ['trx', 6],
      ]),
    );
    followMarkets(units, accepted([{ type: 'MarketAdded', market: MARKET, at: 0 }]));
    expect(units.market('btctrx')).toMatchObject({
      minAmount: '0.0001',
      basePrecision: 8,
      quotePrecision: 6,
    });
    followMarkets(
      units,
      accepted([{ type: 'MarketUpdated', market: { ...MARKET, minAmount: 100n }, at: 0 }]),
    );
    expect(units.market('btctrx').minAmount).toBe('0.01');
  });
});
