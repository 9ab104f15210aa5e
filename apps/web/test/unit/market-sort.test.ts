import { describe, expect, it } from 'vitest';
import type { Market, Tickers } from '../../src/features/trading/api.ts';
import { compactVolume, sortMarkets } from '../../src/features/trading/market-sort.ts';

const market = (id: string, base: string, quote: string): Market => ({
  id,
  name: `${base}/${quote}`.toUpperCase(),
  base_unit: base,
  quote_unit: quote,
  min_price: '0',
  max_price: '0',
  min_amount: '0',
  amount_precision: 2,
  price_precision: 2,
  state: 'enabled',
});
const markets = [
  market('ethbtc', 'eth', 'btc'),
  market('btcusdt', 'btc', 'usdt'),
  market('trxusdt', 'trx', 'usdt'),
];
const ticker = (last: string, amount: string, change: string) => ({
  at: 0,
  ticker: {
    low: '0',
    high: '0',
    open: '0',
    last,
    volume: '0',
    amount,
    avg_price: '0',
    price_change_percent: change,
  },
});
const tickers: Tickers = {
  ethbtc: ticker('0.05', '2', '+1.00%'),
  btcusdt: ticker('50000', '60000', '-2.50%'),
  trxusdt: ticker('0.1', '90000.5', '+0.50%'),
};
const ids = (list: Market[]) => list.map((m) => m.id);

describe('market list order', () => {
  it('sorts volume by its USDT worth across quote currencies', () => {
    // 2 BTC ≈ 100000 USDT beats 90000.5 and 60000 USDT.
    expect(ids(sortMarkets(markets, tickers, [], { key: 'volume', ascending: false }))).toEqual([
      'ethbtc',
      'trxusdt',
      'btcusdt',
    ]);
  });

  it('sorts by pair, price and signed change', () => {
    expect(ids(sortMarkets(markets, tickers, [], { key: 'pair', ascending: true }))).toEqual([
      'btcusdt',
      'ethbtc',
      'trxusdt',
    ]);
    expect(ids(sortMarkets(markets, tickers, [], { key: 'price', ascending: true }))).toEqual([
      'ethbtc',
      'trxusdt',
      'btcusdt',
    ]);
    expect(ids(sortMarkets(markets, tickers, [], { key: 'change', ascending: true }))).toEqual([
      'btcusdt',
      'trxusdt',
      'ethbtc',
    ]);
  });

  it('puts favourites first, each group in the chosen order', () => {
    const sort = { key: 'price', ascending: false } as const;
    expect(ids(sortMarkets(markets, tickers, ['trxusdt', 'ethbtc'], sort))).toEqual([
      'trxusdt',
      'ethbtc',
      'btcusdt',
    ]);
  });
});

describe('compact volume', () => {
  it('writes thousands, millions and billions with two decimals, cut not rounded', () => {
    expect(compactVolume('0.159')).toBe('0.15');
    expect(compactVolume('999.999')).toBe('999.99');
    expect(compactVolume('1000')).toBe('1.00K');
    expect(compactVolume('1234567.89')).toBe('1.23M');
    expect(compactVolume('98765432100')).toBe('98.76B');
    expect(compactVolume(undefined)).toBe('0.00');
  });
});
