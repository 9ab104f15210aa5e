import { describe, expect, it } from 'vitest';
import type { Tickers } from '../../src/features/trading/api.ts';
import { usdtPrice, usdtValue } from '../../src/features/trading/usdt-value.ts';

const markets = [
  { id: 'ethbtc', base_unit: 'eth', quote_unit: 'btc' },
  { id: 'btcusdt', base_unit: 'btc', quote_unit: 'usdt' },
  { id: 'usdteur', base_unit: 'usdt', quote_unit: 'eur' },
  { id: 'trxusdt', base_unit: 'trx', quote_unit: 'usdt' },
];
const ticker = (last: string) => ({
  at: 0,
  ticker: {
    low: '0',
    high: '0',
    open: '0',
    last,
    volume: '0',
    amount: '0',
    avg_price: '0',
    price_change_percent: '+0.00%',
  },
});
const tickers: Tickers = {
  ethbtc: ticker('0.05'),
  btcusdt: ticker('60000.5'),
  usdteur: ticker('0.8'),
  trxusdt: ticker('0'),
};
const value = (currency: string, amount: string) => usdtValue(amount, usdtPrice(currency, markets, tickers));

describe('USDT value of a balance', () => {
  it('is the amount itself for USDT, rounded to cents', () => {
    expect(value('usdt', '100000')).toBe('100000.00');
    expect(value('usdt', '0.005')).toBe('0.01');
    expect(value('usdt', '0.004999')).toBe('0.00');
  });

  it('uses a market with USDT, either way round', () => {
    expect(value('btc', '2')).toBe('120001.00');
    expect(value('btc', '0.00000001')).toBe('0.00');
    // 1 / 0.8 = 1.25 USDT per EUR.
    expect(value('eur', '10')).toBe('12.50');
  });

  it('goes through another currency when there is no USDT market (ETH → BTC → USDT), exactly', () => {
    // 0.05 × 60000.5 = 3000.025 USDT per ETH; 3 ETH = 9000.075.
    expect(value('eth', '3')).toBe('9000.08');
    expect(value('eth', '0.1')).toBe('300.00');
  });

  it('is unknown without a traded market on the way', () => {
    expect(value('trx', '5')).toBeUndefined();
    expect(value('xyz', '5')).toBeUndefined();
    expect(usdtValue('1', usdtPrice('btc', markets, undefined))).toBeUndefined();
  });
});
