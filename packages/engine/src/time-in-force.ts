/**
 * The options of a limit order: time in force (`gtc`, `ioc`, `fok`) and post-only. Validation, and the two
 * checks made before a `fok` or post-only order may trade: both read the book and change nothing.
 */
import type { BookNode } from './book.ts';
import { Rejection, type RejectionCode } from './codes.ts';
import type { CancelReason } from './events.ts';
import type { MarketRt } from './market-rt.ts';
import type { Order } from './order.ts';
import type { OrdType, PlaceOrder } from './types.ts';

/**
 * The rejection for a PlaceOrder's `timeInForce` and `postOnly` against its order type, or null. Absent fields
 * are the defaults (`gtc`, not post-only); `gtc` and `postOnly: false` are accepted on every type but `market`,
 * which carries no time in force at all.
 */
export function optionsRejection(c: PlaceOrder, ordType: OrdType): RejectionCode | null {
  const tif = c.timeInForce;
  if (tif !== undefined) {
    if (tif !== 'gtc' && tif !== 'ioc' && tif !== 'fok') return Rejection.InvalidTimeInForce;
    if (ordType === 'market') return Rejection.MarketOrderTimeInForce;
    if (tif !== 'gtc' && ordType !== 'limit') return Rejection.StopOrderTimeInForce;
  }
  const postOnly = c.postOnly;
  if (postOnly !== undefined) {
    if (typeof postOnly !== 'boolean') return Rejection.InvalidPostOnly;
    if (postOnly && ordType !== 'limit') return Rejection.PostOnlyNotLimit;
    if (postOnly && tif !== undefined && tif !== 'gtc') return Rejection.PostOnlyTimeInForce;
  }
  return null;
}

/** Whether the best opposite level crosses the order's limit price (the order would take on arrival). O(1). */
function takesOnArrival(m: MarketRt, o: Order): boolean {
  const buy = o.side === 'buy';
  const best = (buy ? m.book.asks : m.book.bids).best();
  const limit = o.price as bigint;
  return best !== undefined && (buy ? best.price <= limit : best.price >= limit);
}

/**
 * Whether the book fills all of the order at once, as the matcher would: opposite orders in price-time priority
 * within the limit price, stopping at the first resting order of the same user (self-trade prevention cancels
 * the taker there). Walks only the orders the fill would consume (plus the one that ends the walk).
 */
function fillsWholly(m: MarketRt, o: Order): boolean {
  const buy = o.side === 'buy';
  const levels = (buy ? m.book.asks : m.book.bids).levels;
  const limit = o.price as bigint;
  let available = 0n;
  for (let i = levels.length - 1; i >= 0; i--) {
    const level = levels[i];
    if (level === undefined || (buy ? level.price > limit : level.price < limit)) return false;
    for (let node: BookNode | null = level.head; node !== null; node = node.next) {
      if ((node as Order).acct === o.acct) return false;
      available += node.remainingVolume;
      if (available >= o.remainingVolume) return true;
    }
  }
  return false;
}

/**
 * Why a new limit order must be cancelled before it trades, or null when it may run: a post-only order that
 * would take, a `fok` order that the book cannot fill wholly.
 */
export function cancelBeforeMatching(m: MarketRt, o: Order): CancelReason | null {
  if (o.postOnly) return takesOnArrival(m, o) ? 'post_only' : null;
  if (o.timeInForce === 'fok') return fillsWholly(m, o) ? null : 'fill_or_kill';
  return null;
}
