/**
 * Limit order options: time in force (gtc, ioc, fok) and post-only. Examples, refusals, and properties over
 * random streams (gen.ts): ioc and fok orders never rest; a fok order fills wholly or leaves no trace; a
 * post-only order never takes; money is conserved throughout.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Command,
  type CommandResult,
  checkConservation,
  Engine,
  type PlaceOrder,
  Rejection,
} from '../src/index.ts';
import { diffConfig, fundingCommands, streamArb, USERS } from './gen.ts';
import { fundedEngine, limit, mkt, ok, rejects, trades } from './helpers.ts';

const withOptions = (c: Command, options: Pick<PlaceOrder, 'timeInForce' | 'postOnly'>): Command => ({
  ...c,
  ...options,
});
const cancelReason = (r: CommandResult) =>
  r.events.flatMap((x) => (x.type === 'OrderCancelled' ? [x.reason] : []));

describe('time in force and post-only (examples)', () => {
  it('ioc fills what crosses and cancels the rest as unfilled, releasing its hold', () => {
    const e = fundedEngine();
    ok(e, limit(2, 'sell', 3_000_000n, 2_000n));
    const r = ok(e, withOptions(limit(1, 'buy', 3_000_000n, 5_000n), { timeInForce: 'ioc' }));
    expect(trades(r).map((t) => t.volume)).toEqual([2_000n]);
    expect(cancelReason(r)).toEqual(['unfilled']);
    expect(r.orders.find((o) => o.id === r.orderId)).toMatchObject({
      state: 'cancel',
      timeInForce: 'ioc',
      executedVolume: 2_000n,
      remainingVolume: 3_000n,
      locked: 0n,
    });
    expect(e.balance(1, 'usdt').locked).toBe(0n);
    expect(e.bookOrderIds('btcusdt', 'buy')).toEqual([]);
  });

  it('ioc with nothing to cross is accepted and cancelled untouched', () => {
    const e = fundedEngine();
    const before = e.balance(1, 'usdt');
    const r = ok(e, withOptions(limit(1, 'buy', 3_000_000n, 5_000n), { timeInForce: 'ioc' }));
    expect(r.orderId).not.toBeNull();
    expect(cancelReason(r)).toEqual(['unfilled']);
    expect(e.balance(1, 'usdt')).toEqual(before);
  });

  it('fok fills wholly across levels when the book holds enough', () => {
    const e = fundedEngine();
    ok(e, limit(2, 'sell', 3_000_000n, 2_000n));
    ok(e, limit(3, 'sell', 3_000_100n, 3_000n));
    const r = ok(e, withOptions(limit(1, 'buy', 3_000_100n, 5_000n), { timeInForce: 'fok' }));
    expect(trades(r).map((t) => t.volume)).toEqual([2_000n, 3_000n]);
    expect(r.orders.find((o) => o.id === r.orderId)).toMatchObject({ state: 'done', timeInForce: 'fok' });
  });

  it('fok that the book cannot fill wholly is cancelled as fill_or_kill: no trade, book and balances unchanged', () => {
    const e = fundedEngine();
    ok(e, limit(2, 'sell', 3_000_000n, 2_000n));
    ok(e, limit(3, 'sell', 3_000_200n, 3_000n)); // beyond the limit
    const balances = USERS.map((u) => e.balance(u, 'usdt'));
    const r = ok(e, withOptions(limit(1, 'buy', 3_000_100n, 5_000n), { timeInForce: 'fok' }));
    expect(trades(r)).toEqual([]);
    expect(cancelReason(r)).toEqual(['fill_or_kill']);
    expect(USERS.map((u) => e.balance(u, 'usdt'))).toEqual(balances);
    expect(e.bookOrderIds('btcusdt', 'sell')).toEqual([1, 2]);
  });

  it("fok counts no volume behind the user's own resting order (self-trade prevention would stop there)", () => {
    const e = fundedEngine();
    ok(e, limit(1, 'sell', 3_000_000n, 2_000n));
    ok(e, limit(2, 'sell', 3_000_000n, 9_000n));
    const r = ok(e, withOptions(limit(1, 'buy', 3_000_000n, 5_000n), { timeInForce: 'fok' }));
    expect(cancelReason(r)).toEqual(['fill_or_kill']);
    expect(trades(r)).toEqual([]);
  });

  it('post-only rests when it does not cross, and keeps the flag', () => {
    const e = fundedEngine();
    ok(e, limit(2, 'sell', 3_000_100n, 2_000n));
    const r = ok(e, withOptions(limit(1, 'buy', 3_000_000n, 5_000n), { postOnly: true }));
    expect(r.orders[0]).toMatchObject({ state: 'wait', postOnly: true, timeInForce: 'gtc' });
    expect(e.snapshot().state.orders.find((o) => o.id === r.orderId)?.postOnly).toBe(true);
  });

  it('post-only that would take is cancelled as post_only without trading', () => {
    const e = fundedEngine();
    ok(e, limit(2, 'sell', 3_000_000n, 2_000n));
    const before = e.balance(1, 'usdt');
    const r = ok(e, withOptions(limit(1, 'buy', 3_000_000n, 5_000n), { postOnly: true, timeInForce: 'gtc' }));
    expect(trades(r)).toEqual([]);
    expect(cancelReason(r)).toEqual(['post_only']);
    expect(e.balance(1, 'usdt')).toEqual(before);
    expect(e.bookOrderIds('btcusdt', 'sell')).toEqual([1]);
  });

  it('a resting post-only order is a maker when others take it', () => {
    const e = fundedEngine();
    ok(e, withOptions(limit(1, 'buy', 3_000_000n, 5_000n), { postOnly: true }));
    const r = ok(e, mkt(2, 'sell', 1_000n));
    expect(trades(r)[0]).toMatchObject({ makerOrderId: 1, takerOrderId: 2 });
  });

  it('market orders report ioc; limit and stop orders gtc by default', () => {
    const e = fundedEngine();
    ok(e, limit(2, 'sell', 3_000_000n, 2_000n));
    expect(ok(e, mkt(1, 'buy', 1_000n)).orders.find((o) => o.ordType === 'market')?.timeInForce).toBe('ioc');
    const stop = {
      ...limit(1, 'buy', 3_100_000n, 1_000n),
      ordType: 'stop_loss_limit',
      stopPrice: 3_100_000n,
    };
    const r = ok(e, { ...stop, timeInForce: 'gtc' } as Command);
    expect(r.orders[0]).toMatchObject({ timeInForce: 'gtc', postOnly: false });
  });

  it('refuses the options where they do not apply, changing nothing', () => {
    const e = fundedEngine();
    ok(e, limit(2, 'sell', 3_000_000n, 2_000n));
    const buy = limit(1, 'buy', 3_000_000n, 1_000n);
    const stop = { ...buy, ordType: 'stop_loss_limit', stopPrice: 3_000_000n } as Command;
    const bad = { ...buy, timeInForce: 'day' } as unknown as Command;
    rejects(e, bad, Rejection.InvalidTimeInForce);
    rejects(e, withOptions(mkt(1, 'buy', 1_000n), { timeInForce: 'gtc' }), Rejection.MarketOrderTimeInForce);
    rejects(e, withOptions(mkt(1, 'buy', 1_000n), { timeInForce: 'ioc' }), Rejection.MarketOrderTimeInForce);
    rejects(e, withOptions(stop, { timeInForce: 'ioc' }), Rejection.StopOrderTimeInForce);
    rejects(e, withOptions(stop, { timeInForce: 'fok' }), Rejection.StopOrderTimeInForce);
    rejects(e, { ...buy, postOnly: 'yes' } as unknown as Command, Rejection.InvalidPostOnly);
    rejects(e, withOptions(mkt(1, 'buy', 1_000n), { postOnly: true }), Rejection.PostOnlyNotLimit);
    rejects(e, withOptions(stop, { postOnly: true }), Rejection.PostOnlyNotLimit);
    rejects(e, withOptions(buy, { postOnly: true, timeInForce: 'ioc' }), Rejection.PostOnlyTimeInForce);
    rejects(e, withOptions(buy, { postOnly: true, timeInForce: 'fok' }), Rejection.PostOnlyTimeInForce);
    // The defaults spelled out are accepted.
    ok(e, withOptions(mkt(1, 'buy', 1_000n), { postOnly: false }));
    ok(e, withOptions(stop, { timeInForce: 'gtc', postOnly: false }));
  });
});

/** State that a command which leaves no trace must not change: balances of every user, books, fees. */
function footprint(e: Engine) {
  return {
    balances: USERS.flatMap((u) => ['aaa', 'bbb'].map((c) => e.balance(u, c))),
    bids: e.bookOrderIds('ab', 'buy'),
    asks: e.bookOrderIds('ab', 'sell'),
    fees: [e.systemBalance('fees', 'aaa'), e.systemBalance('fees', 'bbb')],
    last: e.lastPrice('ab'),
  };
}

const seen = new Map<string, number>();
const count = (k: string) => seen.set(k, (seen.get(k) ?? 0) + 1);

function checkStream(cmds: Command[]): void {
  const e = new Engine(diffConfig);
  for (const c of [...fundingCommands(), ...cmds]) {
    const before = footprint(e);
    const r = e.apply(c);
    const report = checkConservation(e);
    if (!report.ok) throw new Error(report.errors.join('\n'));
    if (c.type !== 'PlaceOrder' || !r.ok || c.ordType !== 'limit') continue;
    const id = r.orderId as number;
    const view = r.orders.find((o) => o.id === id);
    const own = trades(r).filter((t) => t.takerOrderId === id || t.makerOrderId === id);
    const tif = c.timeInForce ?? 'gtc';
    // ioc and fok never rest: closed within the command, not in the book, nothing held.
    if (tif !== 'gtc') {
      expect(view?.state === 'done' || view?.state === 'cancel').toBe(true);
      expect(view?.locked).toBe(0n);
      expect(e.order(id)).toBeUndefined();
      expect([...e.bookOrderIds('ab', 'buy'), ...e.bookOrderIds('ab', 'sell')]).not.toContain(id);
      count(`${tif}:${view?.state}`);
    }
    // fok: all of it at once, or no trace at all.
    if (tif === 'fok') {
      if (view?.state === 'done') expect(view.executedVolume).toBe(c.volume);
      else {
        expect(cancelReason(r)).toEqual(['fill_or_kill']);
        expect(trades(r)).toEqual([]);
        expect(footprint(e)).toEqual(before);
      }
    }
    // post-only never takes: it is never the taker of a trade, and when cancelled nothing moved.
    if (c.postOnly === true) {
      expect(own.every((t) => t.makerOrderId === id)).toBe(true);
      expect(trades(r)).toEqual([]);
      if (view?.state === 'cancel') {
        expect(cancelReason(r)).toEqual(['post_only']);
        expect(footprint(e)).toEqual(before);
        count('post_only:cancel');
      } else count('post_only:rests');
    }
  }
}

it('ioc/fok never rest, fok fills wholly or leaves no trace, post-only never takes (random streams)', () => {
  fc.assert(
    fc.property(streamArb(50, 250), (cmds) => {
      checkStream(cmds);
    }),
    { seed: 20260512, numRuns: 150 },
  );
  for (const k of ['ioc:done', 'ioc:cancel', 'fok:done', 'fok:cancel', 'post_only:cancel', 'post_only:rests'])
    expect(seen.get(k) ?? 0, k).toBeGreaterThan(20);
}, 60_000);

it('the options survive a snapshot round trip (a resting post-only order stays post-only)', () => {
  const e = fundedEngine();
  ok(e, withOptions(limit(1, 'buy', 3_000_000n, 5_000n), { postOnly: true, timeInForce: 'gtc' }));
  const copy = Engine.restore(e.snapshot());
  expect(copy.order(1)).toMatchObject({ postOnly: true, timeInForce: 'gtc' });
  const old = e.snapshot();
  for (const o of old.state.orders) {
    delete (o as Partial<typeof o>).postOnly;
    delete (o as Partial<typeof o>).timeInForce;
  }
  expect(Engine.restore(old).order(1)).toMatchObject({ postOnly: false, timeInForce: 'gtc' });
});
