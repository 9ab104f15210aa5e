import { describe, expect, it } from 'vitest';
import { type BookState, bestLevels, emptyBook, mergeBookFrame } from '../../src/features/trading/book.ts';

/** The book's levels as plain pairs, best first, for comparing. */
const view = (book: BookState) => ({
  asks: bestLevels(book.asks, true, 50).map((r) => [r.price, r.amount]),
  bids: bestLevels(book.bids, false, 50).map((r) => [r.price, r.amount]),
  sequence: book.sequence,
});

const snapshot = mergeBookFrame(emptyBook(), 'snap', {
  asks: [
    ['0.06', '1'],
    ['0.05', '2'],
  ],
  bids: [['0.04', '3']],
  sequence: 10,
}).book;

describe('order book merge', () => {
  it('takes a snapshot whole, best levels first', () => {
    expect(view(snapshot)).toEqual({
      asks: [
        ['0.05', '2'],
        ['0.06', '1'],
      ],
      bids: [['0.04', '3']],
      sequence: 10,
    });
  });

  it('applies increments in sequence: a new level, a changed level (0.050 is 0.05), a level removed by amount 0', () => {
    let book = snapshot;
    for (const [frame, sequence] of [
      [{ bids: ['0.045', '1'] }, 11],
      [{ asks: ['0.050', '0.5'] }, 12],
      [{ asks: ['0.06', '0'] }, 13],
    ] as const) {
      const result = mergeBookFrame(book, 'inc', { ...frame, sequence });
      expect(result.resync).toBe(false);
      book = result.book;
    }
    expect(view(book)).toEqual({
      asks: [['0.05', '0.5']],
      bids: [
        ['0.045', '1'],
        ['0.04', '3'],
      ],
      sequence: 13,
    });
    // The snapshot it started from is untouched.
    expect(view(snapshot).asks).toHaveLength(2);
  });

  it('ignores increments before the first snapshot', () => {
    const result = mergeBookFrame(emptyBook(), 'inc', { asks: ['0.05', '1'], sequence: 1 });
    expect(result.resync).toBe(false);
    expect(view(result.book)).toEqual({ asks: [], bids: [], sequence: -1 });
  });

  it('ignores a repeated sequence', () => {
    const result = mergeBookFrame(snapshot, 'inc', { asks: ['0.05', '9'], sequence: 10 });
    expect(result).toEqual({ book: snapshot, resync: false });
  });

  it('asks for a resync on a gap and applies nothing until the next snapshot', () => {
    const gap = mergeBookFrame(snapshot, 'inc', { asks: ['0.05', '9'], sequence: 12 });
    expect(gap.resync).toBe(true);
    expect(gap.book.sequence).toBe(-1);
    expect(view(gap.book).asks).toEqual(view(snapshot).asks);

    // Increments still in flight from before the resync are dropped, and do not ask again.
    const late = mergeBookFrame(gap.book, 'inc', { bids: ['0.01', '5'], sequence: 13 });
    expect(late).toEqual({ book: gap.book, resync: false });

    const fresh = mergeBookFrame(late.book, 'snap', { asks: [['0.07', '4']], bids: [], sequence: 20 }).book;
    expect(view(fresh)).toEqual({ asks: [['0.07', '4']], bids: [], sequence: 20 });
    const next = mergeBookFrame(fresh, 'inc', { bids: ['0.03', '1'], sequence: 21 });
    expect(next.resync).toBe(false);
    expect(view(next.book).bids).toEqual([['0.03', '1']]);
  });

  it('treats an increment without a sequence as a gap', () => {
    expect(mergeBookFrame(snapshot, 'inc', { asks: ['0.05', '1'] }).resync).toBe(true);
  });

  it('keeps the best levels with running totals for the depth bars', () => {
    const book = mergeBookFrame(emptyBook(), 'snap', {
      asks: [],
      bids: [
        ['1', '1'],
        ['3', '2'],
        ['2', '0.5'],
      ],
      sequence: 1,
    }).book;
    expect(bestLevels(book.bids, false, 2).map((r) => [r.price, r.total])).toEqual([
      ['3', 2n * 10n ** 18n],
      ['2', 25n * 10n ** 17n],
    ]);
  });
});
