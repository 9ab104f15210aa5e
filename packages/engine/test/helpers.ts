import {
  type Command,
  type CommandResult,
  checkConservation,
  Engine,
  type EngineConfig,
} from '../src/index.ts';

/** btc 8, usdt 6, eth 18; btcusdt (qm = 1, bm = 10^4), ethusdt (qm = 100, bm = 10^16), ethbtc. */
export function testConfig(over: Partial<EngineConfig> = {}): EngineConfig {
  return {
    currencies: [
      { id: 'btc', precision: 8 },
      { id: 'usdt', precision: 6 },
      { id: 'eth', precision: 18 },
    ],
    markets: [
      {
        id: 'btcusdt',
        base: 'btc',
        quote: 'usdt',
        pricePrecision: 2,
        amountPrecision: 4,
        minPrice: 1n,
        maxPrice: 100_000_000n,
        minAmount: 1n,
        state: 'enabled',
      },
      {
        id: 'ethusdt',
        base: 'eth',
        quote: 'usdt',
        pricePrecision: 2,
        amountPrecision: 2,
        minPrice: 1n,
        maxPrice: 10_000_000n,
        minAmount: 1n,
        state: 'enabled',
      },
      {
        id: 'ethbtc',
        base: 'eth',
        quote: 'btc',
        pricePrecision: 6,
        amountPrecision: 2,
        minPrice: 1n,
        maxPrice: 100_000_000n,
        minAmount: 1n,
        state: 'enabled',
      },
    ],
    ...over,
  };
}

export function assertConserved(e: Engine): void {
  const r = checkConservation(e);
  if (!r.ok) throw new Error(`conservation violated:\n${r.errors.join('\n')}`);
}

/** Sum of postings per currency (must be all zero). */
export function postingSums(r: CommandResult): Map<string, bigint> {
  const m = new Map<string, bigint>();
  for (const p of r.postings) m.set(p.currency, (m.get(p.currency) ?? 0n) + p.amount);
  return m;
}

/** Apply and assert: accepted, postings balance, conservation holds. */
export function ok(e: Engine, c: Command): CommandResult {
  const r = e.apply(c);
  if (!r.ok) throw new Error(`rejected ${c.type}: ${r.code}`);
  for (const [cur, s] of postingSums(r)) if (s !== 0n) throw new Error(`postings of ${cur} sum to ${s}`);
  assertConserved(e);
  return r;
}

export const AT = 1_700_000_000_000;

export function fund(e: Engine, user: number, currency: string, amount: bigint): void {
  ok(e, { type: 'Credit', user, currency, amount, kind: 'deposit', at: AT });
}

/** Apply a command that must be rejected with `code`, and assert that nothing changed. */
export function rejects(e: Engine, c: Command, code: string): CommandResult {
  const before = e.snapshot();
  const r = e.apply(c);
  if (r.ok || r.code !== code) throw new Error(`expected ${code}, got ${r.ok ? 'accepted' : r.code}`);
  if (r.postings.length !== 0 || r.orders.length !== 0) throw new Error('rejection produced postings/orders');
  const expected = c.type === 'PlaceOrder' ? 1 : 0;
  if (r.events.length !== expected) throw new Error(`rejection emitted ${r.events.length} events`);
  if (expected === 1 && r.events[0]?.type !== 'OrderRejected') throw new Error('expected OrderRejected');
  const after = e.snapshot();
  if (!deepEqual(before, after)) throw new Error('rejection changed the state');
  return r;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** Shorthand for a limit order command. */
export function limit(
  user: number,
  side: 'buy' | 'sell',
  price: bigint,
  volume: bigint,
  market = 'btcusdt',
): Command {
  return { type: 'PlaceOrder', user, market, side, ordType: 'limit', price, volume, at: AT };
}

/** Shorthand for a market order command. */
export function mkt(user: number, side: 'buy' | 'sell', volume: bigint, market = 'btcusdt'): Command {
  return { type: 'PlaceOrder', user, market, side, ordType: 'market', volume, at: AT };
}

export function trades(r: CommandResult) {
  return r.events.filter((x) => x.type === 'Trade');
}

/** One BTC and one USDT in units (precisions 8 and 6). */
export const BTC = 100_000_000n;
export const USDT = 1_000_000n;

/** An engine with the test markets where users 1..`users` each hold 1,000,000 USDT and 10 BTC. */
export function fundedEngine(users = 3): Engine {
  const e = new Engine(testConfig());
  for (let u = 1; u <= users; u++) {
    fund(e, u, 'usdt', 1_000_000n * USDT);
    fund(e, u, 'btc', 10n * BTC);
  }
  return e;
}
