/**
 * Differential test: random command streams through the engine and through a deliberately naive reference
 * exchange (reference-book.ts: plain arrays, linear scans, a Map of balances). Trades, rejection codes,
 * cancellations and their reasons, final books, open orders (with their time in force and post-only flag) and
 * balances must be identical; conservation must hold after every step. The streams carry limit orders with every
 * time in force and post-only flag, and now and then options on order types that refuse them.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { type Command, checkConservation, Engine, Rejection } from '../src/index.ts';
import { diffConfig, fundingCommands, streamArb, USERS } from './gen.ts';
import { Reference } from './reference-book.ts';

/** What the streams exercised, to make sure the property is not vacuous. */
const seen = new Map<string, number>();
const count = (k: string) => seen.set(k, (seen.get(k) ?? 0) + 1);

function run(cmds: Command[]): void {
  const e = new Engine(diffConfig);
  const ref = new Reference();
  for (const c of [...fundingCommands(), ...cmds]) {
    const r = e.apply(c);
    const before = ref.trades.length;
    const cancelsBefore = ref.cancels.length;
    const code = ref.apply(c);
    expect(
      r.code,
      JSON.stringify(c, (_, v) => (typeof v === 'bigint' ? `${v}` : v)),
    ).toBe(code);
    const got = r.events.flatMap((x) =>
      x.type === 'Trade'
        ? [[x.id, x.price, x.volume, x.makerOrderId, x.takerOrderId, x.makerFee, x.takerFee]]
        : [],
    );
    expect(got).toEqual(ref.trades.slice(before));
    const cancelled = r.events.flatMap((x) => (x.type === 'OrderCancelled' ? [[x.orderId, x.reason]] : []));
    const byId = (a: unknown[], b: unknown[]) => (a[0] as number) - (b[0] as number);
    expect(cancelled.sort(byId)).toEqual(ref.cancels.slice(cancelsBefore).sort(byId));
    if (r.code !== null) count(r.code);
    for (const x of r.events) count(x.type === 'OrderCancelled' ? `cancel:${x.reason}` : x.type);
    const report = checkConservation(e);
    if (!report.ok) throw new Error(report.errors.join('\n'));
  }
  // identical final books (priority order), open orders and balances
  for (const side of ['buy', 'sell'] as const) {
    const want = ref.opposite(side === 'buy' ? 'sell' : 'buy').map((o) => o.id);
    expect(e.bookOrderIds('ab', side)).toEqual(want);
  }
  for (const u of USERS) {
    const want = ref.open
      .filter((o) => o.user === u)
      .sort((a, b) => a.id - b.id)
      .map((o) => [o.id, o.remaining, o.executed, o.locked, o.seq, o.tif, o.postOnly]);
    expect(
      e
        .openOrders(u)
        .map((o) => [o.id, o.remainingVolume, o.executedVolume, o.locked, o.seq, o.timeInForce, o.postOnly]),
    ).toEqual(want);
    for (const cur of ['aaa', 'bbb']) {
      expect(e.balance(u, cur)).toEqual({
        balance: ref.get(`${u}:${cur}:main`),
        locked: ref.get(`${u}:${cur}:locked`),
      });
    }
  }
  expect(e.systemBalance('fees', 'aaa')).toBe(ref.get('fees:aaa'));
  expect(e.systemBalance('fees', 'bbb')).toBe(ref.get('fees:bbb'));
  expect(e.lastPrice('ab')).toBe(ref.last);
}

it('engine and naive reference agree on random streams (fixed seed)', () => {
  fc.assert(
    fc.property(streamArb(50, 300), (cmds) => {
      run(cmds);
    }),
    { seed: 20240601, numRuns: 300 },
  );
  for (const k of [
    'Trade',
    'OrderTriggered',
    'cancel:self_trade',
    'cancel:unfilled',
    'cancel:budget',
    'cancel:user',
    'cancel:fill_or_kill',
    'cancel:post_only',
  ]) {
    expect(seen.get(k) ?? 0, k).toBeGreaterThan(20);
  }
  for (const k of [Rejection.InsufficientBalance, Rejection.InsufficientLiquidity, Rejection.OrderNotFound]) {
    expect(seen.get(k) ?? 0, k).toBeGreaterThan(20);
  }
  for (const k of [
    Rejection.MarketOrderTimeInForce,
    Rejection.StopOrderTimeInForce,
    Rejection.PostOnlyNotLimit,
    Rejection.PostOnlyTimeInForce,
  ]) {
    expect(seen.get(k) ?? 0, k).toBeGreaterThan(5);
  }
}, 60_000);
