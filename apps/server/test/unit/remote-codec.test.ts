import { describe, expect, it } from 'vitest';
import { decode, encode } from '../../src/core/remote/codec.ts';

describe('the wire form between processes', () => {
  it('brings every bigint back exactly, at any depth, in objects and lists', () => {
    const value = {
      amount: 10n ** 30n + 7n,
      negative: -123456789012345678901234567890n,
      list: [1n, { fee: 0n, note: 'x' }, [2n, null, 'three']],
      plain: 12.5,
      nothing: null,
      text: '$n',
    };
    expect(decode(encode(value))).toEqual(value);
  });

  it('keeps an object that merely has a `$n` key among others, and a `$n` that is not text', () => {
    const value = { a: { $n: '5', other: 1 }, b: { $n: 5 } };
    expect(decode(encode(value))).toEqual(value);
  });

  it('does not let a `__proto__` key change an object', () => {
    const decoded = decode<Record<string, unknown>>(
      Buffer.from('{"__proto__":{"polluted":true},"x":{"$n":"1"}}'),
    );
    expect(decoded.x).toBe(1n);
    expect((decoded as { polluted?: boolean }).polluted).toBeUndefined();
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
