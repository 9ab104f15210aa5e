import type { Command } from '@exchange/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeBatch,
  encodeBatch,
  encodeCheckedBatch,
  journalForm,
  unjournalable,
} from '../../src/core/journal/codec.ts';

const AT = 1_760_000_000_000;
const amount = fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n });
const ref = fc.option(fc.string({ maxLength: 40 }), { nil: undefined });
const at = fc.integer({ min: AT - 10 ** 10, max: AT + 10 ** 6 });
const user = fc.integer({ min: -5, max: 2 ** 40 });
const text = fc.string({ maxLength: 12 });

/** Every kind of command, with odd values where a caller could put them (the engine decides what is valid). */
const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record(
    {
      type: fc.constant('PlaceOrder' as const),
      at,
      ref,
      user,
      market: text,
      side: fc.constantFrom('buy' as const, 'sell' as const),
      ordType: fc.constantFrom('limit' as const, 'market' as const, 'stop_loss_limit' as const),
      volume: amount,
      price: amount,
      stopPrice: amount,
      timeInForce: fc.constantFrom('gtc' as const, 'ioc' as const, 'fok' as const),
      postOnly: fc.boolean(),
    },
    { requiredKeys: ['type', 'at', 'user', 'market', 'side', 'ordType', 'volume'] },
  ),
  fc.record(
    { type: fc.constant('CancelOrder' as const), at, ref, user, orderId: fc.integer() },
    { requiredKeys: ['type', 'at', 'user', 'orderId'] },
  ),
  fc.record(
    {
      type: fc.constant('CancelAll' as const),
      at,
      ref,
      user,
      market: text,
      side: fc.constantFrom('buy' as const, 'sell' as const),
    },
    { requiredKeys: ['type', 'at', 'user'] },
  ),
  fc.record(
    {
      type: fc.constant('Credit' as const),
      at,
      ref,
      user,
      currency: text,
      amount,
      kind: fc.constantFrom('deposit' as const, 'adjustment' as const),
    },
    { requiredKeys: ['type', 'at', 'user', 'currency', 'amount', 'kind'] },
  ),
  fc.record(
    {
      type: fc.constant('SettleWithdrawal' as const),
      at,
      ref,
      withdrawalId: text,
      fee: amount,
      toUser: user,
    },
    { requiredKeys: ['type', 'at', 'withdrawalId', 'fee'] },
  ),
  fc.record(
    {
      type: fc.constant('Swap' as const),
      at,
      ref,
      user,
      from: text,
      to: text,
      amount,
      mode: fc.oneof(
        fc.constant('book' as const),
        fc.record({ price: amount, scale: amount }, { requiredKeys: ['price'] }),
      ),
      feePpm: amount,
    },
    { requiredKeys: ['type', 'at', 'user', 'from', 'to', 'amount', 'mode', 'feePpm'] },
  ),
  fc.record(
    {
      type: fc.constant('AddMarket' as const),
      at,
      ref,
      market: fc.record({
        id: text,
        base: text,
        quote: text,
        pricePrecision: fc.integer({ min: 0, max: 18 }),
        amountPrecision: fc.integer({ min: 0, max: 18 }),
        minPrice: amount,
        maxPrice: amount,
        minAmount: amount,
        state: fc.constantFrom('enabled' as const, 'disabled' as const),
      }),
      fees: fc.record({ maker: amount, taker: amount }),
    },
    { requiredKeys: ['type', 'at', 'market'] },
  ),
);

describe('the journal codec', () => {
  it('gives back exactly the commands of a batch, of every kind, with any text and any amount', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 30 }), at, (commands, batchAt) => {
        const body = encodeBatch(commands, batchAt);
        const decoded = decodeBatch(body);
        expect(decoded.at).toBe(batchAt);
        expect(decoded.commands).toEqual(commands);
        // No `ref` key appears where there was none (the engine echoes it into results).
        for (const [i, c] of decoded.commands.entries())
          expect('ref' in c).toBe(commands[i]?.ref !== undefined);
      }),
      { seed: 2811, numRuns: 300 },
    );
  });

  it('writes the commands of the request path in their short forms', () => {
    const body = encodeBatch(
      [
        {
          type: 'PlaceOrder',
          at: AT + 1,
          ref: 'order:7:a',
          user: 7,
          market: 'ethbtc',
          side: 'sell',
          ordType: 'limit',
          volume: 1000n,
          price: 90000n,
        },
        { type: 'CancelOrder', at: AT, user: 7, orderId: 12 },
      ],
      AT,
    );
    expect(body).toBe(
      `[${AT},["P",1,"order:7:a",7,"ethbtc","sell","limit","1000","90000",null],["C",0,null,7,12]]`,
    );
  });

  it('writes the order options in the short form, only when an order carries them', () => {
    const order = {
      type: 'PlaceOrder' as const,
      at: AT,
      user: 7,
      market: 'ethbtc',
      side: 'buy' as const,
      ordType: 'limit' as const,
      volume: 1n,
      price: 2n,
    };
    const cases: [Command, string][] = [
      [{ ...order, timeInForce: 'ioc' }, '"1","2",null,"ioc",null]'],
      [{ ...order, postOnly: true }, '"1","2",null,null,true]'],
      [{ ...order, timeInForce: 'gtc', postOnly: false }, '"1","2",null,"gtc",false]'],
      [order, '"1","2",null]'],
    ];
    for (const [command, tail] of cases) {
      const body = encodeBatch([command], AT);
      expect(body).toBe(`[${AT},["P",0,null,7,"ethbtc","buy","limit",${tail}]`);
      expect(decodeBatch(body).commands).toEqual([command]);
    }
  });

  it('reads a PlaceOrder written before the order options as one without them (gtc, not post-only)', () => {
    const [old] = decodeBatch(`[${AT},["P",0,null,7,"ethbtc","buy","limit","1","2",null]]`).commands;
    expect(old).toEqual({
      type: 'PlaceOrder',
      at: AT,
      user: 7,
      market: 'ethbtc',
      side: 'buy',
      ordType: 'limit',
      volume: 1n,
      price: 2n,
    });
    expect(old && 'timeInForce' in old).toBe(false);
    expect(old && 'postOnly' in old).toBe(false);
    expect(() => decodeBatch(`[${AT},["P",0,null,7,"m","buy","limit","1","2",null,null,"yes"]]`)).toThrow(
      'expected true or false',
    );
  });

  it('writes a command with a field its short form does not know the generic way, so nothing is dropped', () => {
    const order = {
      type: 'PlaceOrder' as const,
      at: AT,
      user: 7,
      market: 'ethbtc',
      side: 'buy' as const,
      ordType: 'limit' as const,
      volume: 1n,
      price: 2n,
      icebergVolume: 1n,
    } as Command;
    const body = encodeBatch([order], AT);
    expect(body).toContain('["X"');
    expect(decodeBatch(body).commands).toEqual([order]);
  });

  it('refuses what JSON cannot carry exactly (NaN, infinity, functions) before the engine sees it', () => {
    const order = {
      type: 'PlaceOrder' as const,
      at: AT,
      market: 'ethbtc',
      side: 'buy' as const,
      ordType: 'limit' as const,
      volume: 1n,
    };
    expect(unjournalable({ ...order, user: 1 })).toBeNull();
    expect(unjournalable({ ...order, user: Number.NaN })).toBe('the number NaN');
    expect(unjournalable({ ...order, user: Number.POSITIVE_INFINITY })).toBe('the number Infinity');
    expect(unjournalable({ ...order, user: 1, market: (() => 'x') as unknown as string })).toBe('a function');
  });

  it('finds in one look the form a command is written in, and refuses exactly what the walk refuses', () => {
    // Any value where a caller could put one: NaN, infinity, functions, null, a number for a text, an extra field.
    const odd = fc.oneof(
      fc.constantFrom(undefined, null, Number.NaN, Number.NEGATIVE_INFINITY, () => 1, 'buy', 7, 1n, true),
      amount,
      text,
    );
    const field = <T>(usual: fc.Arbitrary<T>) => fc.oneof({ arbitrary: usual, weight: 4 }, odd);
    const head = { at: field(at), ref: field(ref), user: field(user), extra: odd };
    const optional = { requiredKeys: ['type', 'at', 'user'] as never[] };
    const oddCommand = fc.oneof(
      fc.record(
        {
          type: fc.constant('PlaceOrder'),
          ...head,
          market: field(text),
          side: field(fc.constantFrom('buy', 'sell')),
          ordType: field(fc.constantFrom('limit', 'market')),
          volume: field(amount),
          price: field(amount),
          stopPrice: field(amount),
          timeInForce: field(fc.constantFrom('gtc', 'ioc')),
          postOnly: field(fc.boolean()),
        },
        { requiredKeys: ['type', 'at', 'user', 'market', 'side', 'ordType', 'volume'] },
      ),
      fc.record({ type: fc.constant('CancelOrder'), ...head, orderId: field(fc.integer()) }, optional),
      fc.record(
        { type: fc.constant('CancelAll'), ...head, market: field(text), side: field(fc.constant('buy')) },
        optional,
      ),
      fc.record(
        { type: fc.constant('Credit'), ...head, currency: field(text), amount: field(amount) },
        optional,
      ),
    ) as unknown as fc.Arbitrary<Command>;
    const encoded = (encode: () => string) => {
      try {
        return encode();
      } catch (err) {
        return `throws ${(err as Error).message}`;
      }
    };
    let short = 0;
    fc.assert(
      fc.property(oddCommand, (c) => {
        const form = journalForm(c);
        expect(form === null).toBe(unjournalable(c) !== null);
        if (form === null) return;
        if (form !== 'X') short++;
        expect(encoded(() => encodeCheckedBatch([{ command: c, form }], AT))).toBe(
          encoded(() => encodeBatch([c], AT)),
        );
      }),
      { seed: 2812, numRuns: 3000 },
    );
    expect(short).toBeGreaterThan(100);
  });

  it('refuses to read a body it does not know, instead of skipping a command', () => {
    expect(() => decodeBatch('[1,["Z",0,null]]')).toThrow('unknown command tag Z');
    expect(() => decodeBatch('{"a":1}')).toThrow('not a batch');
    expect(() => decodeBatch('[1,["P",0,null,1,"m","buy","limit","1.5",null,null]]')).toThrow(
      'expected an integer',
    );
  });
});
