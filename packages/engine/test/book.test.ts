import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type BookNode, BookSide, Engine } from '../src/index.ts';
import { AT, assertConserved, fund, limit, mkt, ok, testConfig } from './helpers.ts';

function node(v: bigint): BookNode & { id: number } {
  return { prev: null, next: null, level: null, remainingVolume: v, id: 0 };
}

describe('BookSide', () => {
  it('keeps levels sorted with the best last, FIFO within a level, O(1) removal anywhere', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 30 }), fc.boolean()), { maxLength: 200 }),
        (bestHigh, ops) => {
          const side = new BookSide(bestHigh);
          const live: Array<BookNode & { id: number; price: bigint }> = [];
          let id = 0;
          for (const [p, add] of ops) {
            if (add || live.length === 0) {
              const n = Object.assign(node(BigInt(p)), { id: ++id, price: BigInt(p) });
              side.append(n, n.price);
              live.push(n);
            } else {
              const [n] = live.splice(p % live.length, 1);
              if (n !== undefined) side.remove(n);
            }
            // reference: group by price, best first, ids in insertion order
            const prices = [...new Set(live.map((n) => n.price))].sort((a, b) =>
              bestHigh ? (a > b ? -1 : 1) : a < b ? -1 : 1,
            );
            const got = side
              .levelsBestFirst()
              .map((l) => [l.price, BookSide.nodes(l).map((n) => (n as unknown as { id: number }).id)]);
            const want = prices.map((pr) => [pr, live.filter((n) => n.price === pr).map((n) => n.id)]);
            expect(got).toEqual(want);
            expect(side.size).toBe(live.length);
            expect(side.best()?.price).toBe(prices[0]);
          }
        },
      ),
      { seed: 7, numRuns: 100 },
    );
  });

  it('tracks level volume through reduce', () => {
    const side = new BookSide(false);
    const a = node(10n);
    const b = node(5n);
    side.append(a, 100n);
    side.append(b, 100n);
    side.reduce(a, 4n);
    expect(side.best()?.volume).toBe(11n);
    side.remove(a);
    expect(side.best()?.volume).toBe(5n);
    expect(() => side.remove(a)).toThrow();
  });
});

describe('deep price level', () => {
  it('cancel and fill cost stays flat with 100k orders at one price (work counter)', () => {
    const e = new Engine(testConfig());
    const N = 100_000;
    const users = 50;
    for (let u = 1; u <= users + 1; u++) {
      fund(e, u, 'btc', 10n ** 12n);
      fund(e, u, 'usdt', 10n ** 15n);
    }
    const work = () => e.bookWork('btcusdt');
    const perOp: Record<string, number[]> = { insert: [], cancel: [], fill: [] };
    const step = (kind: string, c: Parameters<Engine['apply']>[0]) => {
      const w0 = work();
      const r = e.apply(c);
      if (!r.ok) throw new Error(String(r.code));
      perOp[kind]?.push(work() - w0);
      return r;
    };
    const ids: number[] = [];
    for (let i = 0; i < N; i++) {
      ids.push(step('insert', limit(1 + (i % users), 'sell', 3_000_000n, 10n)).orderId as number);
    }
    expect(e.depth('btcusdt').asks).toEqual([[3_000_000n, BigInt(N) * 10n]]);
    // cancel from the middle, and fill at the head (1.5 orders per market buy)
    for (let i = 0; i < 2000; i++) {
      const id = ids[N / 4 + i * 17] as number;
      const o = e.order(id);
      if (o !== undefined) step('cancel', { type: 'CancelOrder', user: o.user, orderId: id, at: AT });
      step('fill', mkt(users + 1, 'buy', 15n));
    }
    // a fill that walks into the middle of the level, then cancels around it
    step('fill', mkt(users + 1, 'buy', 10n * 40_000n));
    for (let i = 0; i < 100; i++) {
      const id = ids[50_000 + i] as number;
      const o = e.order(id);
      if (o !== undefined) step('cancel', { type: 'CancelOrder', user: o.user, orderId: id, at: AT });
    }
    const max = (xs: number[] | undefined) => Math.max(...(xs ?? [0]));
    expect(max(perOp.insert)).toBeLessThanOrEqual(2);
    expect(max(perOp.cancel)).toBe(1);
    // a 1.5-order fill touches at most 3 nodes; the big walk touches ~2 per order filled
    expect(max(perOp.fill?.slice(0, -1))).toBeLessThanOrEqual(4);
    expect(perOp.fill?.at(-1)).toBeLessThanOrEqual(2 * 40_000 + 4);
    assertConserved(e);
  }, 60_000);

  it('the work of a cancel does not depend on the depth of its level', () => {
    const costAtDepth = (depth: number) => {
      const e = new Engine(testConfig());
      fund(e, 1, 'btc', 10n ** 12n);
      for (let i = 0; i < depth; i++) e.apply(limit(1, 'sell', 100n, 1n));
      const w0 = e.bookWork('btcusdt');
      ok(e, { type: 'CancelOrder', user: 1, orderId: Math.floor(depth / 2), at: AT });
      return e.bookWork('btcusdt') - w0;
    };
    expect(costAtDepth(10)).toBe(costAtDepth(5000));
  });
});
