import { describe, expect, it } from 'vitest';
import { indexCurrencies } from '../../src/adapters/chains/evm/currencies.ts';
import { fromChainUnits, toChainUnits } from '../../src/adapters/chains/evm/units.ts';

const CONTRACT = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

describe('EVM unit conversion', () => {
  it('is one to one when precision equals decimals', () => {
    expect(fromChainUnits(123_456_789n, 6, 6)).toBe(123_456_789n);
    expect(toChainUnits(123_456_789n, 6, 6)).toBe(123_456_789n);
    expect(fromChainUnits(10n ** 30n + 1n, 18, 18)).toBe(10n ** 30n + 1n);
  });

  it('rounds incoming amounts down when the currency is less precise than the chain', () => {
    expect(fromChainUnits(1_000_000_000_000_000_001n, 18, 8)).toBe(100_000_000n);
    expect(fromChainUnits(9_999_999_999n, 18, 8)).toBe(0n);
    expect(toChainUnits(100_000_001n, 18, 8)).toBe(1_000_000_010_000_000_000n);
  });

  it('refuses to send an amount the token cannot carry exactly', () => {
    expect(fromChainUnits(1n, 6, 8)).toBe(100n);
    expect(toChainUnits(150_000_000n, 6, 8)).toBe(1_500_000n);
    expect(() => toChainUnits(150_000_001n, 6, 8)).toThrow('more digits');
  });
});

describe('EVM currency configuration', () => {
  it('indexes tokens by contract address in any case', () => {
    const currencies = indexCurrencies([
      { currency: 'eth', precision: 18, native: true },
      { currency: 'usdt', precision: 6, contract: CONTRACT.toLowerCase(), decimals: 6 },
    ]);
    expect(currencies.native?.currency).toBe('eth');
    expect(currencies.tokensByContract.get(CONTRACT.toLowerCase())?.currency).toBe('usdt');
    expect(() => currencies.get('btc')).toThrow('not carried');
  });

  it('refuses a bad configuration', () => {
    const eth = { currency: 'eth', precision: 18, native: true } as const;
    expect(() => indexCurrencies([eth, { ...eth, currency: 'weth' }])).toThrow('one native');
    expect(() => indexCurrencies([eth, eth])).toThrow('twice');
    expect(() =>
      indexCurrencies([{ currency: 'usdt', precision: 6, contract: '0x1234', decimals: 6 }]),
    ).toThrow('contract address');
    expect(() =>
      indexCurrencies([
        { currency: 'usdt', precision: 6, contract: CONTRACT, decimals: 6 },
        { currency: 'usdc', precision: 6, contract: CONTRACT.toLowerCase(), decimals: 6 },
      ]),
    ).toThrow('listed twice');
    expect(() =>
      indexCurrencies([{ currency: 'usdt', precision: 6.5, contract: CONTRACT, decimals: 6 }]),
    ).toThrow('precision');
  });
});
