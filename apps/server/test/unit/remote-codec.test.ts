import { describe, expect, it } from 'vitest';
import { encodeBatch } from '../../src/core/journal/codec.ts';
import { decode, encode } from '../../src/core/remote/codec.ts';
import {
  decodePublished,
  decodeRequests,
  encodePublished,
  encodeRequests,
} from '../../src/core/remote/wire.ts';

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

describe('the messages between api processes and the core', () => {
  const order = {
    type: 'PlaceOrder' as const,
    user: 7,
    market: 'ethbtc',
    side: 'buy' as const,
    ordType: 'limit' as const,
    price: 5000n,
    volume: 10n ** 20n,
  };
  it('carry commands in the journal form, with their client ids, first sends and answers', () => {
    const requests = [
      { command: order, ref: 'order:7:"a\\b', fresh: false, ack: 'journal' as const },
      { command: { type: 'CancelAll' as const, user: 7 }, ref: 'auto:1', fresh: true },
      {
        command: { type: 'Credit' as const, user: 7, currency: 'btc', amount: 5n, kind: 'deposit' as const },
        ref: 'x',
      },
    ];
    expect(decodeRequests(encodeRequests(requests))).toEqual([
      { command: order, ref: 'order:7:"a\\b', fresh: false, ack: 'journal' },
      { command: { type: 'CancelAll', user: 7 }, ref: 'auto:1', fresh: true },
      {
        command: { type: 'Credit', user: 7, currency: 'btc', amount: 5n, kind: 'deposit' },
        ref: 'x',
        fresh: false,
      },
    ]);
    expect(() => decodeRequests(Buffer.from('{"m":[["a",0,0]],"c":[0]}'))).toThrow('differ in number');
  });

  it('publish a committed batch as its journal text, and read the older tagged form too', () => {
    const body = encodeBatch([{ ...order, at: 1_700_000_000_001 }], 1_700_000_000_000);
    expect(decodePublished(encodePublished({ seq: 9, term: 2, body }))).toEqual({
      seq: 9,
      term: 2,
      commands: [{ ...order, at: 1_700_000_000_001 }],
    });
    expect(decodePublished(encode({ seq: 3, term: 1, commands: [{ amount: 5n }] }))).toEqual({
      seq: 3,
      term: 1,
      commands: [{ amount: 5n }],
    });
    expect(decodePublished(encodePublished({ seq: 4, term: 1, resync: true }))).toMatchObject({
      resync: true,
    });
  });
});
