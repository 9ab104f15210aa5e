import { describe, expect, it } from 'vitest';
import {
  amountUpTo,
  bookSpread,
  groupedLevels,
  groupingSteps,
} from '../../src/features/trading/book-view.ts';

const side = (levels: [string, string][]) => new Map(levels);
/** Rows as [price, amount] with the prices trimmed, for comparing. */
const pairs = (rows: ReturnType<typeof groupedLevels>) => rows.map((r) => [r.price, r.amount]);

describe('order book grouping', () => {
  it('offers 1, 10, 100 and 1000 ticks of the market', () => {
    expect(groupingSteps(5)).toEqual(['0.00001', '0.0001', '0.001', '0.01']);
    expect(groupingSteps(2)).toEqual(['0.01', '0.1', '1', '10']);
  });

  it('leaves levels alone at one tick, best first, with running totals', () => {
    const asks = side([
      ['0.05020', '2'],
      ['0.05010', '1.5'],
    ]);
    const rows = groupedLevels(asks, true, '0.00001', 10);
    expect(pairs(rows)).toEqual([
      ['0.0501', '1.5'],
      ['0.0502', '2'],
    ]);
    expect(rows.map((r) => amountUpTo(r, 3))).toEqual(['1.5', '3.5']);
  });

  it('puts asks in the bucket above and bids in the one below, summing amounts exactly', () => {
    const asks = side([
      ['0.05010', '0.1'],
      ['0.05090', '0.2'],
      ['0.05100', '0.3'],
      ['0.05110', '0.000000000000000001'],
    ]);
    expect(pairs(groupedLevels(asks, true, '0.001', 10))).toEqual([
      ['0.051', '0.6'],
      ['0.052', '0.000000000000000001'],
    ]);
    const bids = side([
      ['0.04000', '1'],
      ['0.03990', '0.7'],
      ['0.03901', '0.1'],
      ['0.03899', '2'],
    ]);
    expect(pairs(groupedLevels(bids, false, '0.001', 10))).toEqual([
      ['0.04', '1'],
      ['0.039', '0.8'],
      ['0.038', '2'],
    ]);
  });

  it('keeps only the best buckets', () => {
    const bids = side([
      ['10', '1'],
      ['20', '1'],
      ['30', '1'],
    ]);
    expect(pairs(groupedLevels(bids, false, '10', 2))).toEqual([
      ['30', '1'],
      ['20', '1'],
    ]);
  });

  it('cuts the amount up to a level to the market precision, never rounding up', () => {
    const [row] = groupedLevels(side([['1', '0.1239']]), true, '1', 1);
    expect(row && amountUpTo(row, 3)).toBe('0.123');
  });
});

describe('mid price and spread', () => {
  it('is exact, with one more decimal when the sum is odd', () => {
    expect(bookSpread('0.05010', '0.04000')).toEqual({ mid: '0.04505', spread: '0.0101', percent: '22.42' });
    expect(bookSpread('0.00003', '0.00002')).toEqual({
      mid: '0.000025',
      spread: '0.00001',
      percent: '40.00',
    });
  });

  it('is zero-spread for a locked book and missing for an empty side', () => {
    expect(bookSpread('100', '100')).toEqual({ mid: '100', spread: '0', percent: '0.00' });
    expect(bookSpread(undefined, '1')).toBeUndefined();
    expect(bookSpread('1', undefined)).toBeUndefined();
  });
});
