/** Random command streams for the differential and snapshot tests. */
import fc from 'fast-check';
import type { Command, EngineConfig, TimeInForce } from '../src/index.ts';

/**
 * One market `ab`: aaa (precision 2) against bbb (precision 4), price precision 2, amount precision 1, so
 * quote units = price · volume · 10 and base units = volume · 10. User 3 is on trading level 1.
 */
export const diffConfig: EngineConfig = {
  currencies: [
    { id: 'aaa', precision: 2 },
    { id: 'bbb', precision: 4 },
  ],
  markets: [
    {
      id: 'ab',
      base: 'aaa',
      quote: 'bbb',
      pricePrecision: 2,
      amountPrecision: 1,
      minPrice: 1n,
      maxPrice: 1000n,
      minAmount: 1n,
      state: 'enabled',
    },
  ],
  fees: { defaultMaker: 1000n, defaultTaker: 2500n, rules: [{ level: 1, maker: 0n, taker: 700n }] },
  tradingLevels: [[3, 1]],
};

export const USERS = [1, 2, 3, 4];
export const QM = 10n;
export const BM = 10n;

/** Initial funding: enough for many orders, not for all (some buys/sells are refused). */
export function fundingCommands(): Command[] {
  const out: Command[] = [];
  for (const user of USERS) {
    out.push({ type: 'Credit', user, currency: 'aaa', amount: 600n, kind: 'deposit', at: 0 });
    out.push({ type: 'Credit', user, currency: 'bbb', amount: 60_000n, kind: 'deposit', at: 0 });
  }
  return out;
}

const user = fc.constantFrom(...USERS);
const side = fc.constantFrom('buy' as const, 'sell' as const);
const price = fc.integer({ min: 95, max: 105 }).map(BigInt);
const at = fc.integer({ min: 1, max: 1_000_000 });

/** A time in force, mostly absent (the default, gtc). */
const timeInForce = fc.option(fc.constantFrom('gtc' as const, 'ioc' as const, 'fok' as const), {
  nil: undefined,
  freq: 2,
});
/** A post-only flag, mostly absent. */
const postOnly = fc.option(fc.boolean(), { nil: undefined, freq: 3 });
/** The order options as a PlaceOrder carries them (an absent option is no field at all). */
const withOptions = (o: { timeInForce: TimeInForce | undefined; postOnly: boolean | undefined }) => ({
  ...(o.timeInForce === undefined ? {} : { timeInForce: o.timeInForce }),
  ...(o.postOnly === undefined ? {} : { postOnly: o.postOnly }),
});
/** Options on an order type that takes none: rarely, so that most such orders are accepted. */
const rareOptions = fc.oneof(
  { arbitrary: fc.constant({ timeInForce: undefined, postOnly: undefined }), weight: 12 },
  { arbitrary: fc.record({ timeInForce, postOnly }), weight: 1 },
);

const limitArb = fc
  .record({
    user,
    side,
    price,
    volume: fc.integer({ min: 1, max: 20 }).map(BigInt),
    at,
    options: fc.record({ timeInForce, postOnly }),
  })
  .map(
    ({ options, ...r }): Command => ({
      type: 'PlaceOrder',
      market: 'ab',
      ordType: 'limit',
      ...r,
      ...withOptions(options),
    }),
  );
const marketArb = fc
  .record({ user, side, volume: fc.integer({ min: 1, max: 30 }).map(BigInt), at, options: rareOptions })
  .map(
    ({ options, ...r }): Command => ({
      type: 'PlaceOrder',
      market: 'ab',
      ordType: 'market',
      ...r,
      ...withOptions(options),
    }),
  );
const stopArb = fc
  .record({
    user,
    side,
    ordType: fc.constantFrom(
      'stop_loss_limit' as const,
      'take_profit_limit' as const,
      'stop_loss_order' as const,
    ),
    stopPrice: price,
    price,
    volume: fc.integer({ min: 1, max: 10 }).map(BigInt),
    at,
    options: rareOptions,
  })
  .map(
    ({ options, ...r }): Command => ({
      type: 'PlaceOrder',
      market: 'ab',
      ...r,
      price: r.ordType === 'stop_loss_order' ? undefined : r.price,
      ...withOptions(options),
    }),
  );
const cancelArb = fc
  .record({ user, orderId: fc.integer({ min: 1, max: 150 }), at })
  .map((r): Command => ({ type: 'CancelOrder', ...r }));
const cancelAllArb = fc
  .record({ user, side: fc.option(side, { nil: undefined }), at })
  .map((r): Command => ({ type: 'CancelAll', ...r }));
const creditArb = fc
  .record({
    user,
    currency: fc.constantFrom('aaa', 'bbb'),
    amount: fc.integer({ min: 1, max: 50_000 }).map(BigInt),
    at,
  })
  .map((r): Command => ({ type: 'Credit', kind: 'deposit', ...r }));

/** A random command for market `ab`. */
export const commandArb: fc.Arbitrary<Command> = fc.oneof(
  { arbitrary: limitArb, weight: 10 },
  { arbitrary: marketArb, weight: 2 },
  { arbitrary: stopArb, weight: 2 },
  { arbitrary: cancelArb, weight: 4 },
  { arbitrary: cancelAllArb, weight: 1 },
  { arbitrary: creditArb, weight: 1 },
);

/** A stream of commands. */
export const streamArb = (min: number, max: number) =>
  fc.array(commandArb, { minLength: min, maxLength: max });
