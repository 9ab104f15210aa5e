import { describe, expect, it } from 'vitest';
import { HISTORY_DAYS, type HistoryMarket, pastTrades } from '../../src/demo/history.ts';
import { DemoRandom } from '../../src/demo/random.ts';

const btc: HistoryMarket = { id: 'btcusdt', mid: 650_000n, minPrice: 1n, minVolume: 250n, maxVolume: 5000n };
const END = Date.UTC(2026, 10, 23, 12, 0, 0);
const DAY = 86_400_000;

describe('the demo history', () => {
  it('is the same walk on every run, and another for another market', () => {
    expect(pastTrades(btc, END)).toEqual(pastTrades(btc, END));
    const other = pastTrades({ ...btc, id: 'ethusdt' }, END);
    expect(other.map((t) => t.price)).not.toEqual(pastTrades(btc, END).map((t) => t.price));
  });

  it('covers 90 days in order, dense in the last two, and ends at the reference price', () => {
    const trades = pastTrades(btc, END);
    const times = trades.map((t) => t.at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(new Set(times).size).toBe(times.length);
    expect(times[0]).toBeGreaterThanOrEqual(END - HISTORY_DAYS * DAY);
    expect(times.at(-1)).toBeLessThan(END);
    const lastDay = trades.filter((t) => t.at >= END - DAY).length;
    const aDayAMonthAgo = trades.filter((t) => t.at >= END - 31 * DAY && t.at < END - 30 * DAY).length;
    expect(lastDay).toBeGreaterThan(10 * aDayAMonthAgo);
    expect(trades.at(-1)?.price).toBe(btc.mid);
  });

  it('stays exact and in bounds: integer prices within the band, volumes within the range, both sides taken', () => {
    const trades = pastTrades(btc, END);
    for (const t of trades) {
      expect(typeof t.price).toBe('bigint');
      // The walk is pulled back at 75 % and 130 % of the reference; one step may overshoot the bound.
      expect(t.price).toBeGreaterThan((btc.mid * 74n) / 100n);
      expect(t.price).toBeLessThan((btc.mid * 131n) / 100n);
      expect(t.volume >= btc.minVolume && t.volume <= btc.maxVolume).toBe(true);
    }
    const buys = trades.filter((t) => t.takerSide === 'buy').length;
    expect(buys / trades.length).toBeGreaterThan(0.4);
    expect(buys / trades.length).toBeLessThan(0.6);
    // Not a flat line: the price moves over the 90 days.
    expect(new Set(trades.map((t) => t.price)).size).toBeGreaterThan(trades.length / 10);
  });

  it('draws integers only, within the asked range', () => {
    const random = new DemoRandom('x');
    for (let i = 0; i < 1000; i++) {
      const n = random.int(-3, 3);
      expect(Number.isInteger(n) && n >= -3 && n <= 3).toBe(true);
      const b = random.big(10n, 12n);
      expect(b >= 10n && b <= 12n).toBe(true);
    }
  });
});
