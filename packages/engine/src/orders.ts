/** PlaceOrder, CancelOrder, CancelAll: validation, holds, and handing orders to the matcher. */
import type { Level } from './book.ts';
import { Rejection, type RejectionCode } from './codes.ts';
import { cause, hold } from './ledger.ts';
import type { MarketRt } from './market-rt.ts';
import { cancelOpen, execute, touchOrder } from './matching.ts';
import type { UserAccount } from './order.ts';
import { Order } from './order.ts';
import type { CoreState, Tx } from './state.ts';
import { cancelBeforeMatching, optionsRejection } from './time-in-force.ts';
import type { CancelAll, CancelOrder, OrdType, PlaceOrder, Side } from './types.ts';

function validType(t: string): t is OrdType {
  return (
    t === 'limit' ||
    t === 'market' ||
    t === 'stop_loss_limit' ||
    t === 'take_profit_limit' ||
    t === 'stop_loss_order'
  );
}

/** Whether `u` is an acceptable user id. */
export function validUser(u: unknown): u is number {
  return typeof u === 'number' && Number.isSafeInteger(u) && u >= 0;
}

/** Order types that carry a limit price. */
export function hasLimitPrice(t: OrdType): boolean {
  return t === 'limit' || t === 'stop_loss_limit' || t === 'take_profit_limit';
}

/** Order types that wait for a stop price. */
export function isStop(t: OrdType): boolean {
  return t === 'stop_loss_limit' || t === 'take_profit_limit' || t === 'stop_loss_order';
}

/** Stops that trigger when the last price falls to or below the stop price. */
export function triggersDown(t: OrdType, side: Side): boolean {
  return (t === 'take_profit_limit') === (side === 'buy');
}

/**
 * Quote units needed to buy `volume` steps by walking the asks from the best level (O(levels walked)).
 * Returns the cost of what the book can fill.
 */
export function walkBuyCost(m: MarketRt, volume: bigint): bigint {
  const arr = m.book.asks.levels;
  let rem = volume;
  let cost = 0n;
  for (let i = arr.length - 1; i >= 0 && rem > 0n; i--) {
    const l = arr[i] as Level;
    let take = l.volume;
    if (rem < take) take = rem;
    cost += l.price * take * m.qm;
    rem -= take;
  }
  return cost;
}

function checkPrice(
  p: unknown,
  m: MarketRt,
  nonPos: RejectionCode,
  range: RejectionCode,
): RejectionCode | null {
  if (typeof p !== 'bigint') return Rejection.InvalidVolumeOrPrice;
  // minPrice > 0 (checked at construction), so a non-positive price is also below minPrice.
  if (p < m.cfg.minPrice) return p <= 0n ? nonPos : range;
  if (p > m.cfg.maxPrice) return range;
  return null;
}

/**
 * Validate a PlaceOrder; returns the rejection code, or null with the market and the amount to hold in
 * `tx.vMarket` / `tx.vLock` (scratch fields: no result object per command).
 */
function validate(st: CoreState, tx: Tx, c: PlaceOrder): RejectionCode | null {
  if (!validUser(c.user)) return Rejection.InvalidUser;
  const m = st.market(c.market);
  if (m === undefined) return Rejection.MarketNotFound;
  if (m.state !== 'enabled') return Rejection.MarketDisabled;
  const side = c.side;
  if (side !== 'buy' && side !== 'sell') return Rejection.InvalidSide;
  const t = c.ordType;
  if (!validType(t)) return Rejection.InvalidType;
  const vol = c.volume;
  if (typeof vol !== 'bigint') return Rejection.InvalidVolumeOrPrice;
  // minAmount > 0 (checked at construction), so a non-positive volume is also below it.
  if (vol < m.cfg.minAmount) return vol <= 0n ? Rejection.NonPositiveVolume : Rejection.VolumeTooSmall;
  const price = c.price;
  if (t === 'limit' || t === 'stop_loss_limit' || t === 'take_profit_limit') {
    if (price === undefined) return Rejection.MissingPrice;
    const e = checkPrice(price, m, Rejection.NonPositivePrice, Rejection.PriceOutOfRange);
    if (e !== null) return e;
  } else if (price !== undefined) return Rejection.MarketOrderPrice;
  if (t !== 'limit' && t !== 'market') {
    if (c.stopPrice === undefined) return Rejection.MissingStopPrice;
    const e = checkPrice(c.stopPrice, m, Rejection.NonPositiveStopPrice, Rejection.StopPriceOutOfRange);
    if (e !== null) return e;
  } else if (c.stopPrice !== undefined) return Rejection.UnexpectedStopPrice;
  const options = optionsRejection(c, t);
  if (options !== null) return options;

  let lock: bigint;
  const buy = side === 'buy';
  if (t === 'market') {
    if ((buy ? m.book.asks : m.book.bids).size === 0) return Rejection.InsufficientLiquidity;
    lock = buy ? walkBuyCost(m, vol) : m.bm === 1n ? vol : vol * m.bm;
  } else if (!buy) {
    lock = m.bm === 1n ? vol : vol * m.bm;
  } else {
    // Limit-priced buys hold price · volume; a buy stop_loss_order holds stopPrice · volume and, once
    // triggered, spends at most that.
    const p = (price ?? c.stopPrice) as bigint;
    lock = m.qm === 1n ? p * vol : p * vol * m.qm;
  }
  const acct = st.users.get(c.user);
  if (acct === undefined ? lock > 0n : (acct.main[buy ? m.quoteIdx : m.baseIdx] as bigint) < lock) {
    return Rejection.InsufficientBalance;
  }
  tx.vMarket = m;
  tx.vAcct = acct;
  tx.vLock = lock;
  return null;
}

/** Create and hold an order (no matching). */
export function openOrder(
  st: CoreState,
  tx: Tx,
  m: MarketRt,
  user: number | UserAccount,
  side: Side,
  ordType: OrdType,
  price: bigint | null,
  stopPrice: bigint | null,
  volume: bigint,
  lock: bigint,
  takerFeeOverride: bigint | null,
): Order {
  const acct = typeof user === 'number' ? st.account(user) : user;
  const rates = m.fees(acct.level);
  const id = st.nextOrderId++;
  const seq = st.nextSeq++;
  const taker = takerFeeOverride ?? rates.taker;
  const pool = st.pool;
  const o =
    pool.length === 0
      ? new Order(id, acct, m, side, ordType, price, stopPrice, volume, lock, tx.at, rates.maker, taker, seq)
      : (pool.pop() as Order).reuse(
          id,
          acct,
          m,
          side,
          ordType,
          price,
          stopPrice,
          volume,
          lock,
          tx.at,
          rates.maker,
          taker,
          seq,
        );
  cause(tx, 'order', id);
  hold(st, tx, acct, side === 'buy' ? m.quoteIdx : m.baseIdx, lock);
  st.orders.set(o);
  acct.linkOrder(o);
  touchOrder(tx, o);
  tx.events[tx.nEvents++] = {
    type: 'OrderOpened',
    orderId: o.id,
    user: acct.id,
    market: m.id,
    side,
    ordType,
    price,
    stopPrice,
    volume,
    locked: lock,
    at: tx.at,
  };
  return o;
}

/** PlaceOrder. Returns a rejection code, or the new order id. */
export function placeOrder(st: CoreState, tx: Tx, c: PlaceOrder): RejectionCode | number {
  const e = validate(st, tx, c);
  if (e !== null) return e;
  const m = tx.vMarket as MarketRt;
  const lock = tx.vLock;
  const acct = tx.vAcct ?? st.account(c.user);
  const stop = isStop(c.ordType);
  const o = openOrder(
    st,
    tx,
    m,
    acct,
    c.side,
    c.ordType,
    c.price ?? null,
    stop ? (c.stopPrice as bigint) : null,
    c.volume,
    lock,
    null,
  );
  if (stop) {
    (triggersDown(c.ordType, c.side) ? m.stopsDown : m.stopsUp).append(o, o.stopPrice as bigint);
    execute(st, tx, m, null);
    return o.id;
  }
  if (c.ordType === 'limit') {
    if (c.timeInForce !== undefined) o.timeInForce = c.timeInForce;
    if (c.postOnly === true) o.postOnly = true;
    // A post-only order that would take, or a fok order the book cannot fill wholly, is cancelled untouched:
    // nothing trades, so no stop can trigger.
    const refusal = cancelBeforeMatching(m, o);
    if (refusal !== null) {
      cancelOpen(st, tx, o, refusal);
      return o.id;
    }
  }
  execute(st, tx, m, o);
  return o.id;
}

/** CancelOrder: only the owner's open orders. */
export function cancelOrder(st: CoreState, tx: Tx, c: CancelOrder): RejectionCode | null {
  if (!validUser(c.user)) return Rejection.InvalidUser;
  const o = st.orders.get(c.orderId);
  if (o === undefined || o.acct.id !== c.user) return Rejection.OrderNotFound;
  cancelOpen(st, tx, o, 'user');
  return null;
}

/** CancelAll: every open order of the user (optionally filtered), in id order. */
export function cancelAll(st: CoreState, tx: Tx, c: CancelAll): RejectionCode | null {
  if (!validUser(c.user)) return Rejection.InvalidUser;
  if (c.market !== undefined && !st.markets.has(c.market)) return Rejection.MarketNotFound;
  if (c.side !== undefined && c.side !== 'buy' && c.side !== 'sell') return Rejection.InvalidSide;
  const acct = st.users.get(c.user);
  if (acct === undefined) return null;
  let o = acct.ordersHead;
  while (o !== null) {
    const next: Order | null = o.unext;
    if ((c.market === undefined || o.mkt.id === c.market) && (c.side === undefined || o.side === c.side)) {
      cancelOpen(st, tx, o, 'user');
    }
    o = next;
  }
  return null;
}
