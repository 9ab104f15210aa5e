import { describe, expect, it } from 'vitest';
import { SlidingWindowLimiter } from '../../src/modules/identity/limiter.ts';

describe('sliding window limiter', () => {
  it('allows max attempts per window per key, then again once the window moves on', () => {
    let now = 0;
    const limiter = new SlidingWindowLimiter(3, 1000, () => now);
    expect([1, 2, 3, 4].map(() => limiter.take('a'))).toEqual([true, true, true, false]);
    expect(limiter.take('b')).toBe(true);
    now = 999;
    expect(limiter.take('a')).toBe(false);
    now = 1000;
    expect(limiter.take('a')).toBe(true);
  });
});
