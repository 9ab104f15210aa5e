import { describe, expect, it } from 'vitest';
import { swapSources, swapTargets, typedSwapAmount } from '../../src/features/wallet/swap-form.ts';

const markets = [
  { base_unit: 'btc', quote_unit: 'usdt' },
  { base_unit: 'eth', quote_unit: 'btc' },
  { base_unit: 'trx', quote_unit: 'usdt' },
];

describe('swap form', () => {
  it('offers only pairs a market trades, either way round', () => {
    expect(swapTargets(markets, 'usdt')).toEqual(['btc', 'trx']);
    expect(swapTargets(markets, 'btc')).toEqual(['usdt', 'eth']);
    expect(swapTargets(markets, 'eur')).toEqual([]);
    expect(swapSources(markets, ['btc', 'eth', 'usdt', 'trx', 'eur'])).toEqual(['btc', 'eth', 'usdt', 'trx']);
  });

  it("keeps the amount to the currency's precision as typed", () => {
    expect(typedSwapAmount('650.25', 6)).toBe('650.25');
    expect(typedSwapAmount('.5', 6)).toBe('0.5');
    expect(typedSwapAmount('1.', 2)).toBe('1.');
    expect(typedSwapAmount('1.123456', 6)).toBe('1.123456');
    expect(typedSwapAmount('1.1234567', 6)).toBeNull();
    expect(typedSwapAmount('1.001', 2)).toBeNull();
    expect(typedSwapAmount('1.5', 0)).toBeNull();
    expect(typedSwapAmount('12', 0)).toBe('12');
    expect(typedSwapAmount('1e5', 8)).toBeNull();
    expect(typedSwapAmount('', 8)).toBe('');
  });
});
