import { describe, expect, it } from 'vitest';
import {
  crosses,
  type FeeRow,
  feePreview,
  feeUnits,
  ratePercent,
  userFeeRates,
} from '../../src/features/trading/fees.ts';

/** The seed's schedule: maker 0.1 %, taker 0.2 % on every market. */
const SEED: FeeRow[] = [{ market_id: 'any', group: 'any', maker: '0.001', taker: '0.002' }];
const ETH = { id: 'eth', precision: 18 };
const BTC = { id: 'btc', precision: 8 };
const rates = userFeeRates(SEED, 'ethbtc');
const best = { ask: '0.035', bid: '0.0349' };

describe('the order form fee preview (issue 32 item 3)', () => {
  it('charges the taker rate to a market buy: 0.0123 ETH pays 0.0000246 ETH, not the maker 0.0000123', () => {
    const preview = feePreview({
      side: 'buy',
      ordType: 'market',
      price: '0.035',
      amount: '0.0123',
      total: '0.0004305',
      best,
      rates,
      base: ETH,
      quote: BTC,
    });
    expect(preview).toEqual({ amount: '0.0000246', currency: 'ETH', role: 'taker', rate: '0.002' });
  });

  it('charges the maker rate to a limit order that rests, the taker rate to one that crosses', () => {
    const order = (side: 'buy' | 'sell', price: string) =>
      feePreview({
        side,
        ordType: 'limit',
        price,
        amount: '1',
        total: price,
        best,
        rates,
        base: ETH,
        quote: BTC,
      });
    expect(order('buy', '0.034')).toMatchObject({ role: 'maker', amount: '0.001', currency: 'ETH' });
    expect(order('buy', '0.035')).toMatchObject({ role: 'taker', amount: '0.002' });
    expect(order('sell', '0.036')).toMatchObject({ role: 'maker', amount: '0.000036', currency: 'BTC' });
    expect(order('sell', '0.0349')).toMatchObject({ role: 'taker', amount: '0.0000698' });
    // An empty book: nothing to cross, so a limit order rests.
    expect(crosses('buy', 'limit', '100', {})).toBe(false);
    expect(crosses('sell', 'stop_loss_order', '1', {})).toBe(true);
  });

  it('rounds up to the smallest unit of the currency charged, as the server does', () => {
    // 0.00001 BTC of total at 0.2 % is 0.00000002 BTC; 0.000001 would be 0.000000002, charged as 0.00000001.
    const sell = (total: string) =>
      feePreview({
        side: 'sell',
        ordType: 'market',
        price: '0.001',
        amount: '0.001',
        total,
        best,
        rates,
        base: ETH,
        quote: BTC,
      });
    expect(sell('0.00001').amount).toBe('0.00000002');
    expect(sell('0.000001').amount).toBe('0.00000001');
    expect(feeUnits(1n, 1000n)).toBe(1n);
    expect(feeUnits(1_000_000n, 1000n)).toBe(1000n);
    expect(feeUnits(5n, 0n)).toBe(0n);
  });

  it("resolves the user's rates as the engine does, and shows them as percentages", () => {
    const rows: FeeRow[] = [
      ...SEED,
      { market_id: 'btcusdt', group: 'any', maker: '0.0005', taker: '0.0015' },
      { market_id: 'any', group: '1', maker: '0', taker: '0.001' },
    ];
    expect(userFeeRates(rows, 'ethbtc')).toEqual({ maker: '0.001', taker: '0.002' });
    expect(userFeeRates(rows, 'btcusdt')).toEqual({ maker: '0.0005', taker: '0.0015' });
    expect(userFeeRates(rows, 'btcusdt', 1)).toEqual({ maker: '0', taker: '0.001' });
    expect(userFeeRates([], 'ethbtc')).toEqual({ maker: '0.001', taker: '0.001' });
    expect(ratePercent('0.001')).toBe('0.1%');
    expect(ratePercent('0.0015')).toBe('0.15%');
    expect(ratePercent('0')).toBe('0%');
  });
});
