import { describe, expect, it } from 'vitest';
import { NonceLog } from '../../src/modules/api-keys/nonce-log.ts';

describe('NonceLog', () => {
  it('refuses a nonce it holds and takes it again once it is older than the bound', () => {
    const log = new NonceLog(10_000);
    expect(log.add('1', 0)).toBe(true);
    expect(log.add('1', 5_000)).toBe(false);
    expect(log.add('2', 5_000)).toBe(true);
    expect(log.add('1', 10_000)).toBe(false);
    expect(log.add('3', 10_001)).toBe(true);
    expect(log.add('1', 10_002)).toBe(true);
    expect(log.add('2', 15_000)).toBe(false);
  });

  it('keeps every nonce of a busy key inside the bound, across the compaction of its queue', () => {
    const log = new NonceLog(1_000);
    // 10 nonces a millisecond for 3 seconds: the queue is compacted many times on the way.
    for (let at = 0; at < 3_000; at++) {
      for (let i = 0; i < 10; i++) expect(log.add(`${at}:${i}`, at)).toBe(true);
    }
    for (let back = 0; back <= 1_000; back += 250) expect(log.add(`${2_999 - back}:3`, 2_999)).toBe(false);
    expect(log.add('1000:3', 2_999)).toBe(true);
  });
});
