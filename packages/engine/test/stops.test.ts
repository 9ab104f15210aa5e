import { describe, expect, it } from 'vitest';
import { type Command, Engine, type OrdType, type Side } from '../src/index.ts';
import { AT, fund, limit, ok, testConfig, trades } from './helpers.ts';

function setup(): Engine {
  const e = new Engine(testConfig());
  for (const u of [1, 2, 3, 4]) {
    fund(e, u, 'usdt', 10n ** 12n);
    fund(e, u, 'btc', 10n ** 10n);
  }
  return e;
}

function stop(
  user: number,
  side: Side,
  ordType: OrdType,
  stopPrice: bigint,
  volume: bigint,
  price?: bigint,
): Command {
  return { type: 'PlaceOrder', user, market: 'btcusdt', side, ordType, stopPrice, price, volume, at: AT };
}

/** Make a trade at `price` between users 3 (maker) and 4 (taker), moving the last price. */
function print(e: Engine, price: bigint) {
  ok(e, limit(3, 'sell', price, 1n));
  return ok(e, limit(4, 'buy', price, 1n));
}

describe('stop orders', () => {
  it('wait untriggered outside the book, holding funds, until the last price crosses', () => {
    const e = setup();
    print(e, 100n);
    const r = ok(e, stop(1, 'sell', 'stop_loss_limit', 95n, 10n, 94n));
    expect(r.orders[0]).toMatchObject({ state: 'wait', locked: 100_000n, triggeredAt: null });
    expect(e.balance(1, 'btc').locked).toBe(100_000n);
    expect(e.depth('btcusdt').asks).toEqual([]);
    print(e, 96n); // not yet
    expect(e.order(r.orderId as number)?.triggeredAt).toBeNull();
    ok(e, limit(2, 'buy', 90n, 20n)); // resting bid for the stop to hit
    const t = print(e, 95n); // last <= 95 → triggers, enters as limit 94 and sells into the 90 bid? no: 90 < 94
    expect(t.events.filter((x) => x.type === 'OrderTriggered')).toEqual([
      {
        type: 'OrderTriggered',
        orderId: r.orderId,
        user: 1,
        market: 'btcusdt',
        stopPrice: 95n,
        lastPrice: 95n,
        at: AT,
      },
    ]);
    expect(e.order(r.orderId as number)).toMatchObject({ state: 'wait', triggeredAt: AT });
    expect(e.depth('btcusdt').asks).toEqual([[94n, 10n]]);
  });

  it('trigger directions: stop_loss sell ≤, stop_loss buy ≥, take_profit sell ≥, take_profit buy ≤', () => {
    const cases: Array<[Side, OrdType, bigint, bigint, boolean]> = [
      [/* side */ 'sell', 'stop_loss_limit', /* stop */ 100n, /* last */ 100n, true],
      ['sell', 'stop_loss_limit', 100n, 101n, false],
      ['buy', 'stop_loss_limit', 100n, 100n, true],
      ['buy', 'stop_loss_limit', 100n, 99n, false],
      ['sell', 'take_profit_limit', 100n, 100n, true],
      ['sell', 'take_profit_limit', 100n, 99n, false],
      ['buy', 'take_profit_limit', 100n, 100n, true],
      ['buy', 'take_profit_limit', 100n, 101n, false],
      ['sell', 'stop_loss_order', 100n, 99n, true],
      ['buy', 'stop_loss_order', 100n, 101n, true],
    ];
    for (const [side, type, stopPrice, last, fires] of cases) {
      const e = setup();
      print(
        e,
        side === 'buy'
          ? type === 'take_profit_limit'
            ? 200n
            : 50n
          : type === 'take_profit_limit'
            ? 50n
            : 200n,
      );
      const price = type === 'stop_loss_order' ? undefined : 100n;
      const id = ok(e, stop(1, side, type, stopPrice, 1n, price)).orderId as number;
      expect(e.order(id)?.triggeredAt).toBeNull();
      const r = print(e, last);
      expect(
        r.events.some((x) => x.type === 'OrderTriggered'),
        `${side} ${type} last ${last}`,
      ).toBe(fires);
    }
  });

  it('triggers immediately at placement when the condition already holds; never without a last price', () => {
    const e = setup();
    ok(e, limit(2, 'buy', 90n, 5n));
    const r0 = ok(e, stop(1, 'sell', 'stop_loss_limit', 95n, 1n, 90n));
    expect(r0.events.some((x) => x.type === 'OrderTriggered')).toBe(false); // no trade yet
    print(e, 94n);
    // the earlier stop fired on that print (94 <= 95) and sold into the 90 bid
    expect(e.order(r0.orderId as number)).toBeUndefined();
    const r = ok(e, stop(1, 'sell', 'stop_loss_limit', 95n, 1n, 90n));
    expect(r.events.map((x) => x.type).slice(0, 3)).toEqual(['OrderOpened', 'OrderTriggered', 'Trade']);
  });

  it('stop_loss_order sells at market when triggered', () => {
    const e = setup();
    print(e, 100n);
    ok(e, limit(2, 'buy', 80n, 3n));
    ok(e, limit(2, 'buy', 70n, 10n));
    const id = ok(e, stop(1, 'sell', 'stop_loss_order', 90n, 5n)).orderId;
    const r = print(e, 85n);
    expect(trades(r).map((t) => [t.takerOrderId, t.price, t.volume])).toEqual([
      [r.orderId, 85n, 1n],
      [id, 80n, 3n],
      [id, 70n, 2n],
    ]);
    expect(r.orders.find((o) => o.id === id)).toMatchObject({ state: 'done', locked: 0n });
  });

  it('a buy stop_loss_order holds stopPrice · volume and spends at most that', () => {
    const e = setup();
    print(e, 100n);
    ok(e, limit(2, 'sell', 120n, 2n));
    ok(e, limit(2, 'sell', 130n, 10n));
    const id = ok(e, stop(1, 'buy', 'stop_loss_order', 110n, 5n)).orderId as number;
    expect(e.order(id)?.locked).toBe(550n);
    const before = e.balance(1, 'usdt');
    const r = print(e, 110n);
    // 550 buys 2 at 120 (240) then floor(310 / 130) = 2 at 130 (260); 50 released
    expect(
      trades(r)
        .filter((t) => t.takerOrderId === id)
        .map((t) => [t.price, t.volume]),
    ).toEqual([
      [120n, 2n],
      [130n, 2n],
    ]);
    expect(r.events.find((x) => x.type === 'OrderCancelled')).toMatchObject({
      orderId: id,
      reason: 'budget',
    });
    expect(e.balance(1, 'usdt')).toEqual({ balance: before.balance + before.locked - 500n, locked: 0n });
  });

  it('cascades deterministically: triggered orders run in trigger order and may trigger more', () => {
    const e = setup();
    print(e, 100n);
    ok(e, limit(2, 'buy', 95n, 1n));
    ok(e, limit(2, 'buy', 90n, 1n));
    ok(e, limit(2, 'buy', 85n, 1n));
    // A (stop 98) and B (stop 98, later) fire together; A's sale prints 95 → C (stop 95) fires
    const a = ok(e, stop(1, 'sell', 'stop_loss_order', 98n, 1n)).orderId;
    const c = ok(e, stop(3, 'sell', 'stop_loss_order', 95n, 1n)).orderId;
    const b = ok(e, stop(4, 'sell', 'stop_loss_order', 98n, 1n)).orderId;
    const r = print(e, 97n);
    const seq = r.events
      .filter((x) => x.type === 'OrderTriggered' || x.type === 'Trade')
      .map((x) => (x.type === 'Trade' ? `T${x.takerOrderId}@${x.price}` : `S${x.orderId}`));
    expect(seq).toEqual([`T${r.orderId}@97`, `S${a}`, `S${b}`, `T${a}@95`, `S${c}`, `T${b}@90`, `T${c}@85`]);
    // same stream on a fresh engine gives the same events
    const e2 = setup();
    print(e2, 100n);
    ok(e2, limit(2, 'buy', 95n, 1n));
    ok(e2, limit(2, 'buy', 90n, 1n));
    ok(e2, limit(2, 'buy', 85n, 1n));
    ok(e2, stop(1, 'sell', 'stop_loss_order', 98n, 1n));
    ok(e2, stop(3, 'sell', 'stop_loss_order', 95n, 1n));
    ok(e2, stop(4, 'sell', 'stop_loss_order', 98n, 1n));
    expect(print(e2, 97n).events).toEqual(r.events);
  });

  it('cancelling an untriggered stop releases its hold', () => {
    const e = setup();
    const id = ok(e, stop(1, 'buy', 'take_profit_limit', 90n, 10n, 91n)).orderId as number;
    expect(e.balance(1, 'usdt').locked).toBe(910n);
    const r = ok(e, { type: 'CancelOrder', user: 1, orderId: id, at: AT });
    expect(r.orders[0]).toMatchObject({ state: 'cancel', locked: 0n });
    expect(e.balance(1, 'usdt').locked).toBe(0n);
    print(e, 80n);
    expect(e.depth('btcusdt').bids).toEqual([]);
  });

  it('a triggered stop that meets its own resting order is cancelled (self-trade)', () => {
    const e = setup();
    print(e, 100n);
    ok(e, limit(1, 'buy', 95n, 5n));
    const id = ok(e, stop(1, 'sell', 'stop_loss_order', 99n, 2n)).orderId;
    const r = print(e, 99n);
    expect(r.events.find((x) => x.type === 'OrderCancelled')).toMatchObject({
      orderId: id,
      reason: 'self_trade',
    });
    expect(e.order(id as number)).toBeUndefined();
    expect(e.depth('btcusdt').bids).toEqual([[95n, 5n]]);
  });
});
