/**
 * Money conservation over random streams of every command, with random fee rates (fee rounding): postings
 * sum to zero per currency for each command, replaying postings reproduces every balance, and the
 * invariant Σ users + fees + card + swap == net external flow holds after every step.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { type Command, checkConservation, Engine } from '../src/index.ts';
import { testConfig } from './helpers.ts';

const users = fc.constantFrom(1, 2, 3);
const cur = fc.constantFrom('btc', 'usdt', 'eth');
const market = fc.constantFrom('btcusdt', 'btcusdt', 'ethusdt', 'ethbtc');
const small = fc.integer({ min: 1, max: 40 }).map(BigInt);
const amount = fc.oneof(
  fc.bigInt({ min: 1n, max: 10n ** 9n }),
  small.map((x) => x * 10n ** 4n), // whole btc steps
  small.map((x) => x * 10n ** 16n), // whole eth steps
);
const at = fc.constant(1);
const ppm = fc.bigInt({ min: 0n, max: 1_000_000n });

const placeArb: fc.Arbitrary<Command> = fc
  .record({
    type: fc.constant('PlaceOrder' as const),
    user: users,
    market,
    side: fc.constantFrom('buy' as const, 'sell' as const),
    ordType: fc.constantFrom('limit' as const, 'market' as const, 'stop_loss_order' as const),
    price: fc.integer({ min: 1, max: 6 }).map(BigInt),
    stopPrice: fc.integer({ min: 1, max: 6 }).map(BigInt),
    volume: small,
    at,
  })
  .map(
    (c): Command => ({
      ...c,
      price: c.ordType === 'limit' ? c.price : undefined,
      stopPrice: c.ordType === 'stop_loss_order' ? c.stopPrice : undefined,
    }),
  );

const cmd: fc.Arbitrary<Command> = fc.oneof(
  { arbitrary: placeArb, weight: 12 },
  fc.record({
    type: fc.constant('CancelOrder' as const),
    user: users,
    orderId: fc.integer({ min: 1, max: 60 }),
    at,
  }),
  fc.record({
    type: fc.constant('Credit' as const),
    user: users,
    currency: cur,
    amount,
    kind: fc.constant('deposit' as const),
    at,
  }),
  fc.record({
    type: fc.constant('Debit' as const),
    user: users,
    currency: cur,
    amount,
    kind: fc.constant('adjustment' as const),
    at,
  }),
  fc.record({
    type: fc.constant('HoldWithdrawal' as const),
    user: users,
    currency: cur,
    amount,
    withdrawalId: fc.constantFrom('a', 'b', 'c'),
    fromExternal: fc.boolean(),
    at,
  }),
  fc.record({
    type: fc.constant('SettleWithdrawal' as const),
    withdrawalId: fc.constantFrom('a', 'b', 'c'),
    fee: fc.bigInt({ min: 0n, max: 1000n }),
    at,
  }),
  fc.record({
    type: fc.constant('ReleaseWithdrawal' as const),
    withdrawalId: fc.constantFrom('a', 'b', 'c'),
    toExternal: fc.boolean(),
    at,
  }),
  fc.record({
    type: fc.constant('InternalTransfer' as const),
    from: users,
    to: users,
    currency: cur,
    amount,
    at,
  }),
  fc.record({
    type: fc.constant('CardTopUp' as const),
    user: users,
    amount,
    fee: fc.bigInt({ min: 0n, max: 1000n }),
    at,
  }),
  fc.record({ type: fc.constant('CardFee' as const), user: users, amount, at }),
  fc.record({ type: fc.constant('CardRefund' as const), user: users, amount, at }),
  fc.record({
    type: fc.constant('FundLiquidity' as const),
    currency: cur,
    amount: fc.bigInt({ min: 1n, max: 10n ** 9n }),
    at,
  }),
  {
    weight: 4,
    arbitrary: fc
      .record({
        user: users,
        pair: fc.constantFrom(
          ...(['btc', 'usdt', 'eth'] as const).flatMap((a) =>
            ['btc', 'usdt', 'eth'].filter((b) => b !== a).map((b) => [a, b] as const),
          ),
        ),
        amount,
        mode: fc.oneof(
          fc.constant('book' as const),
          fc.record({ price: fc.bigInt({ min: 1n, max: 10n ** 10n }) }),
        ),
        feePpm: ppm,
        at,
      })
      .map(({ pair, ...r }): Command => ({ type: 'Swap', from: pair[0], to: pair[1], ...r })),
  },
  fc.record({
    type: fc.constant('SetTradingLevel' as const),
    user: users,
    level: fc.integer({ min: 0, max: 2 }),
    at,
  }),
  fc.record({
    type: fc.constant('SetFeeRule' as const),
    rule: fc.record({ level: fc.integer({ min: 0, max: 2 }), maker: ppm, taker: ppm }),
    at,
  }),
);

/** What the streams exercised (command:code and event types), so the property is not vacuous. */
const seen = new Map<string, number>();

it('conserves every unit across all commands and random fee rates', () => {
  fc.assert(
    fc.property(fc.array(cmd, { minLength: 30, maxLength: 200 }), (cmds) => {
      const e = new Engine(testConfig());
      const ledger = new Map<string, bigint>();
      const funding: Command[] = [1, 2, 3].flatMap((user) =>
        (
          [
            ['btc', 10n ** 11n],
            ['usdt', 10n ** 12n],
            ['eth', 10n ** 20n],
          ] as const
        ).map(
          ([currency, amount]): Command => ({
            type: 'Credit',
            user,
            currency,
            amount,
            kind: 'deposit',
            at: 0,
          }),
        ),
      );
      for (const c of [...funding, ...cmds]) {
        const r = e.apply(c);
        seen.set(`${c.type}:${r.code}`, (seen.get(`${c.type}:${r.code}`) ?? 0) + 1);
        for (const x of r.events) seen.set(x.type, (seen.get(x.type) ?? 0) + 1);
        const sums = new Map<string, bigint>();
        for (const p of r.postings) {
          sums.set(p.currency, (sums.get(p.currency) ?? 0n) + p.amount);
          // ... and so do the postings of each cause (a fee is a pair of its own, never netted into a trade).
          const why = `${p.cause}:${p.causeId}|${p.currency}`;
          sums.set(why, (sums.get(why) ?? 0n) + p.amount);
          if (p.cause === 'trade' || p.cause === 'order') expect(p.causeId).toBeGreaterThan(0);
          const k = `${p.account}|${p.currency}`;
          ledger.set(k, (ledger.get(k) ?? 0n) + p.amount);
        }
        for (const s of sums.values()) expect(s).toBe(0n);
        const report = checkConservation(e);
        if (!report.ok) throw new Error(report.errors.join('\n'));
      }
      // the postings alone reproduce every balance
      for (const [k, v] of ledger) {
        const [account, currency] = k.split('|') as [string, string];
        const parts = account.split(':');
        if (parts[0] === 'u') {
          const b = e.balance(Number(parts[1]), currency);
          expect(parts[2] === 'main' ? b.balance : b.locked).toBe(v);
        } else {
          expect(e.systemBalance(account as 'fees', currency)).toBe(v);
        }
      }
    }),
    { seed: 4242, numRuns: 200 },
  );
  // the streams must actually exercise trading, swaps, withdrawals and the card
  for (const k of [
    'Trade',
    'OrderTriggered',
    'Swap:null',
    'SettleWithdrawal:null',
    'CardTopUp:null',
    'CardRefund:null',
  ]) {
    expect(seen.get(k) ?? 0, k).toBeGreaterThan(20);
  }
});
