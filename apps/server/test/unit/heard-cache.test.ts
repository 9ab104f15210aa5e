import { describe, expect, it } from 'vitest';
import { HeardCache, REORDER_EVERY_MS } from '../../src/db/heard-cache.ts';

const policy = { heardMs: 60_000, unheardMs: 60_000, size: 2 };

describe('HeardCache', () => {
  it('evicts the least recently used key once it holds more than its size', () => {
    const cache = new HeardCache<string>(policy);
    cache.set('a', 'A', 0);
    cache.set('b', 'B', 0);
    // A hit after the reorder interval makes `a` the most recent, so `b` goes first.
    expect(cache.get('a', REORDER_EVERY_MS)).toBe('A');
    cache.set('c', 'C', REORDER_EVERY_MS);
    expect(cache.get('b', REORDER_EVERY_MS)).toBeUndefined();
    expect(cache.get('a', REORDER_EVERY_MS)).toBe('A');
    expect(cache.get('c', REORDER_EVERY_MS)).toBe('C');
  });

  it('moves a hit key at most once per interval: within it, order is by the last move', () => {
    const cache = new HeardCache<string>(policy);
    cache.set('a', 'A', 0);
    cache.set('b', 'B', 0);
    // Hit within the interval of its insertion: `a` stays oldest, and is the one evicted.
    expect(cache.get('a', REORDER_EVERY_MS - 1)).toBe('A');
    cache.set('c', 'C', REORDER_EVERY_MS - 1);
    expect(cache.get('a', REORDER_EVERY_MS - 1)).toBeUndefined();
    expect(cache.size).toBe(2);
  });

  it('expires an entry after its time to live, and never keeps a read that a forget overtook', async () => {
    const cache = new HeardCache<string>(policy);
    cache.set('a', 'A', 0);
    expect(cache.get('a', 59_999)).toBe('A');
    expect(cache.get('a', 60_000)).toBeUndefined();
    let finish: (v: string) => void = () => {};
    const loading = cache.load('k', 0, () => new Promise<string>((r) => (finish = r)));
    cache.forget('k');
    finish('old');
    expect(await loading).toBe('old');
    expect(cache.get('k', 1)).toBeUndefined();
  });
});
