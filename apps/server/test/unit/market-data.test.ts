import type { OrderView } from '@exchange/engine';
import { describe, expect, it } from 'vitest';
import { orderUuid } from '../../src/core/order-uuid.ts';
import { BookView, type LevelChange, restsInBook } from '../../src/modules/market-data/book-view.ts';
import { changePercent } from '../../src/modules/market-data/tickers.ts';

const order = (over: Partial<OrderView>): OrderView => ({
  id: 1,
  user: 1,
  market: 'ethbtc',
  side: 'sell',
  ordType: 'limit',
  price: 5000n,
  stopPrice: null,
  originVolume: 10n,
  remainingVolume: 10n,
  executedVolume: 0n,
  locked: 0n,
  fundsReceived: 0n,
  fundsSpent: 0n,
  tradesCount: 0,
  state: 'wait',
  createdAt: 0,
  updatedAt: 0,
  makerFee: 1000n,
  takerFee: 2000n,
  triggeredAt: null,
  timeInForce: 'gtc',
  postOnly: false,
  seq: 1,
  ...over,
});

describe('committed book view', () => {
  it('aggregates levels and reports each changed level with its new volume', () => {
    const book = new BookView();
    const changes = new Map<string, LevelChange>();
    book.apply(order({ id: 1 }), changes);
    book.apply(order({ id: 2, remainingVolume: 5n }), changes);
    book.apply(order({ id: 3, side: 'buy', price: 4990n, remainingVolume: 7n }), changes);
    expect(book.depth(10)).toEqual({ asks: [[5000n, 15n]], bids: [[4990n, 7n]] });
    const fill = new Map<string, LevelChange>();
    book.apply(order({ id: 1, remainingVolume: 4n, state: 'pending' }), fill);
    expect([...fill.values()]).toEqual([{ side: 'sell', price: 5000n, volume: 9n }]);
    const gone = new Map<string, LevelChange>();
    book.apply(order({ id: 3, side: 'buy', price: 4990n, remainingVolume: 7n, state: 'cancel' }), gone);
    expect([...gone.values()]).toEqual([{ side: 'buy', price: 4990n, volume: 0n }]);
    expect(book.depth(10).bids).toEqual([]);
  });

  it('sorts asks ascending and bids descending and honours the limit', () => {
    const book = new BookView();
    const c = new Map<string, LevelChange>();
    for (const [id, price] of [
      [1, 5002n],
      [2, 5001n],
      [3, 5003n],
    ] as const)
      book.apply(order({ id, price }), c);
    for (const [id, price] of [
      [4, 4998n],
      [5, 4999n],
      [6, 4997n],
    ] as const)
      book.apply(order({ id, side: 'buy', price }), c);
    const depth = book.depth(2);
    expect(depth.asks.map(([p]) => p)).toEqual([5001n, 5002n]);
    expect(depth.bids.map(([p]) => p)).toEqual([4999n, 4998n]);
  });

  it('keeps untriggered stops and market orders out of the book', () => {
    expect(restsInBook(order({ ordType: 'stop_loss_limit', triggeredAt: null }))).toBe(false);
    expect(restsInBook(order({ ordType: 'stop_loss_limit', triggeredAt: 5 }))).toBe(true);
    expect(restsInBook(order({ ordType: 'market', price: null }))).toBe(false);
    expect(restsInBook(order({ state: 'done' }))).toBe(false);
  });
});

describe('ticker change', () => {
  it.each([
    ['100', '120', '+20.00%'],
    ['0.05', '0.049', '-2.00%'],
    ['3', '4', '+33.33%'],
    ['0', '5', '+0.00%'],
    ['2', '2', '+0.00%'],
  ])('%s -> %s is %s', (open, last, expected) => {
    expect(changePercent(open, last)).toBe(expected);
  });
});

describe('order uuid', () => {
  it('is a stable version-8 UUID per order id, different for each id', () => {
    expect(orderUuid(42)).toBe(orderUuid(42));
    expect(orderUuid(42)).not.toBe(orderUuid(43));
    expect(orderUuid(42)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
