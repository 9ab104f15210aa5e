/**
 * The hot path: running an incoming (taker) order against the book, settling trades, closing orders and
 * triggering stop orders.
 */
import type { BookNode, BookSide } from './book.ts';
import type { CancelReason } from './events.ts';
import { cause, posting, release, touch } from './ledger.ts';
import type { MarketRt } from './market-rt.ts';
import type { Order } from './order.ts';
import type { CoreState, Tx } from './state.ts';

const PPM = 1_000_000n;
const PPM_CEIL = 999_999n;

/** fee = ceil(x · rate / 10^6): the receiver's credit is rounded down, the fee account gets the rest. */
export function feeOf(x: bigint, rate: bigint): bigint {
  return rate === 0n ? 0n : (x * rate + PPM_CEIL) / PPM;
}

/** Put an order into this command's `orders` list (once). */
export function touchOrder(tx: Tx, o: Order): void {
  if (o.stamp !== tx.stamp) {
    o.stamp = tx.stamp;
    tx.orders[tx.nOrders++] = o;
  }
}

/** Currency index an order holds (quote for buys, base for sells). */
export function holdCur(o: Order): number {
  return o.side === 'buy' ? o.mkt.quoteIdx : o.mkt.baseIdx;
}

function forget(st: CoreState, tx: Tx, o: Order): void {
  st.orders.delete(o.id);
  o.acct.unlinkOrder(o);
  tx.freed[tx.nFreed++] = o;
}

/** Close a fully filled order: release any leftover hold (market buys), emit OrderDone. */
export function finishDone(st: CoreState, tx: Tx, o: Order): void {
  if (o.locked !== 0n) {
    cause(tx, 'order', o.id);
    release(st, tx, o.acct, holdCur(o), o.locked);
    o.locked = 0n;
  }
  o.state = 'done';
  o.updatedAt = tx.at;
  forget(st, tx, o);
  touchOrder(tx, o);
  tx.events[tx.nEvents++] = {
    type: 'OrderDone',
    orderId: o.id,
    user: o.acct.id,
    market: o.mkt.id,
    at: tx.at,
  };
}

/** Cancel an open order wherever it is (book, stop set, or in flight): release its hold, emit OrderCancelled. */
export function cancelOpen(st: CoreState, tx: Tx, o: Order, reason: CancelReason): void {
  if (o.level !== null) o.level.side.remove(o);
  if (o.locked !== 0n) {
    cause(tx, 'order', o.id);
    release(st, tx, o.acct, holdCur(o), o.locked);
    o.locked = 0n;
  }
  o.state = 'cancel';
  o.updatedAt = tx.at;
  forget(st, tx, o);
  touchOrder(tx, o);
  tx.events[tx.nEvents++] = {
    type: 'OrderCancelled',
    orderId: o.id,
    user: o.acct.id,
    market: o.mkt.id,
    reason,
    at: tx.at,
  };
}

/** fee(v · bm, rate) for a fill of `v` steps: a multiplication when bm · rate is a whole number of ppm. */
function baseFee(m: MarketRt, v: bigint, base: bigint, rate: bigint): bigint {
  if (rate === 0n) return 0n;
  if (rate !== m.bfRate) {
    const k = m.bm * rate;
    m.bfUnit = k % PPM === 0n ? k / PPM : -1n;
    m.bfRate = rate;
  }
  const u = m.bfUnit;
  return u < 0n ? feeOf(base, rate) : u === 1n ? v : v * u;
}

/** Settle one fill of `v` steps at the maker's price `p`. */
function settle(
  st: CoreState,
  tx: Tx,
  m: MarketRt,
  opp: BookSide,
  maker: Order,
  taker: Order,
  p: bigint,
  v: bigint,
) {
  const qm1 = m.qm === 1n;
  const base = m.bm === 1n ? v : v * m.bm;
  const quote = qm1 ? p * v : p * v * m.qm;
  const takerBuys = taker.side === 'buy';
  const buy = takerBuys ? taker : maker;
  const sell = takerBuys ? maker : taker;
  const B = buy.acct;
  const S = sell.acct;
  const bi = m.baseIdx;
  const qi = m.quoteIdx;
  const fees = st.sys.fees;
  const bCode = m.base;
  const qCode = m.quote;
  const tradeId = st.nextTradeId;
  cause(tx, 'trade', tradeId);

  // Buyer pays the quote out of its hold; a better price than the buyer's limit releases the difference.
  const limit = taker.price;
  if (takerBuys && limit !== null && limit !== p) {
    const held = qm1 ? limit * v : limit * v * m.qm;
    const imp = held - quote;
    buy.locked -= held;
    B.locked[qi] = (B.locked[qi] as bigint) - held;
    B.main[qi] = (B.main[qi] as bigint) + imp;
    posting(tx, B.lockedKey, qCode, -quote);
    posting(tx, B.lockedKey, qCode, -imp);
    posting(tx, B.mainKey, qCode, imp);
  } else {
    buy.locked -= quote;
    B.locked[qi] = (B.locked[qi] as bigint) - quote;
    posting(tx, B.lockedKey, qCode, -quote);
  }
  // Seller delivers the base out of its hold.
  sell.locked -= base;
  S.locked[bi] = (S.locked[bi] as bigint) - base;
  posting(tx, S.lockedKey, bCode, -base);

  // Each side receives the gross amount; its fee then leaves as a pair of its own.
  const buyFee = baseFee(m, v, base, takerBuys ? taker.takerFee : maker.makerFee);
  const sellFee = feeOf(quote, takerBuys ? maker.makerFee : taker.takerFee);
  B.main[bi] = (B.main[bi] as bigint) + (buyFee === 0n ? base : base - buyFee);
  posting(tx, B.mainKey, bCode, base);
  S.main[qi] = (S.main[qi] as bigint) + (sellFee === 0n ? quote : quote - sellFee);
  posting(tx, S.mainKey, qCode, quote);
  if (buyFee !== 0n || sellFee !== 0n) {
    cause(tx, 'fee', tradeId);
    if (buyFee !== 0n) {
      fees[bi] = (fees[bi] as bigint) + buyFee;
      posting(tx, B.mainKey, bCode, -buyFee);
      posting(tx, 'fees', bCode, buyFee);
    }
    if (sellFee !== 0n) {
      fees[qi] = (fees[qi] as bigint) + sellFee;
      posting(tx, S.mainKey, qCode, -sellFee);
      posting(tx, 'fees', qCode, sellFee);
    }
  }
  touch(tx, B, qi);
  touch(tx, B, bi);
  touch(tx, S, bi);
  touch(tx, S, qi);

  // Orders (a first fill or a full fill needs no arithmetic).
  const at = tx.at;
  opp.reduce(maker, v);
  taker.remainingVolume = taker.remainingVolume === v ? 0n : taker.remainingVolume - v;
  maker.executedVolume = maker.executedVolume === 0n ? v : maker.executedVolume + v;
  taker.executedVolume = taker.executedVolume === 0n ? v : taker.executedVolume + v;
  maker.quoteTotal = maker.quoteTotal === 0n ? quote : maker.quoteTotal + quote;
  taker.quoteTotal = taker.quoteTotal === 0n ? quote : taker.quoteTotal + quote;
  maker.tradesCount++;
  taker.tradesCount++;
  maker.updatedAt = at;
  taker.updatedAt = at;
  maker.state = 'pending';
  taker.state = 'pending';
  touchOrder(tx, maker);
  touchOrder(tx, taker);
  m.lastPrice = p;
  st.nextTradeId = tradeId + 1;

  tx.events[tx.nEvents++] = {
    type: 'Trade',
    id: tradeId,
    market: m.id,
    price: p,
    volume: v,
    total: quote,
    makerOrderId: maker.id,
    takerOrderId: taker.id,
    makerUser: maker.acct.id,
    takerUser: taker.acct.id,
    takerSide: taker.side,
    makerFee: takerBuys ? sellFee : buyFee,
    takerFee: takerBuys ? buyFee : sellFee,
    at,
  };
}

/**
 * Run a taker order (new, or a triggered stop) against the opposite side: price-time priority, trade at the
 * maker's price, self-trade prevention (the taker's remainder is cancelled when it meets its own user's
 * resting order). Afterwards the order is done, rests (limit-priced `gtc` orders), or its remainder is cancelled
 * (`unfilled` for market and `ioc` orders).
 */
export function runTaker(st: CoreState, tx: Tx, m: MarketRt, o: Order): void {
  const buy = o.side === 'buy';
  const opp = buy ? m.book.asks : m.book.bids;
  const limit = o.price;
  let reason: CancelReason | null = null;
  outer: while (o.remainingVolume > 0n) {
    const level = opp.best();
    if (level === undefined) break;
    const p = level.price;
    if (limit !== null && (buy ? p > limit : p < limit)) break;
    let node: BookNode | null = level.head;
    while (node !== null) {
      const maker = node as Order;
      if (maker.acct === o.acct) {
        reason = 'self_trade';
        break outer;
      }
      let v = maker.remainingVolume;
      if (o.remainingVolume < v) v = o.remainingVolume;
      let spent = false;
      if (buy && limit === null) {
        // Market buys spend at most their hold.
        const unit = p * m.qm;
        if (unit * v > o.locked) {
          v = o.locked / unit;
          if (v === 0n) {
            reason = 'budget';
            break outer;
          }
          // What is left of the hold cannot pay for one more step at this price or any later one.
          spent = true;
        }
      }
      const next: BookNode | null = node.next;
      settle(st, tx, m, opp, maker, o, p, v);
      if (maker.remainingVolume === 0n) {
        opp.remove(maker);
        finishDone(st, tx, maker);
      }
      if (o.remainingVolume === 0n) break outer;
      if (spent) {
        reason = 'budget';
        break outer;
      }
      node = next;
    }
  }
  if (o.remainingVolume === 0n) {
    finishDone(st, tx, o);
  } else if (reason === null && limit !== null && o.timeInForce === 'gtc') {
    (buy ? m.book.bids : m.book.asks).append(o, limit);
    touchOrder(tx, o);
  } else {
    cancelOpen(st, tx, o, reason ?? 'unfilled');
  }
}

/** Move every stop order whose condition holds at the market's last price into the trigger queue. */
export function collectTriggers(st: CoreState, tx: Tx, m: MarketRt): void {
  const last = m.lastPrice;
  if (last === null || (m.stopsDown.size === 0 && m.stopsUp.size === 0)) return;
  const q = tx.triggered;
  const start = q.length;
  for (let lvl = m.stopsDown.best(); lvl !== undefined && last <= lvl.price; lvl = m.stopsDown.best()) {
    drain(m.stopsDown, lvl.head, q);
  }
  for (let lvl = m.stopsUp.best(); lvl !== undefined && last >= lvl.price; lvl = m.stopsUp.best()) {
    drain(m.stopsUp, lvl.head, q);
  }
  if (q.length === start) return;
  // Trigger order: placement (id) order among the orders triggered by the same price move.
  const fresh = q.splice(start).sort((a, b) => a.id - b.id);
  for (const s of fresh) {
    s.triggeredAt = tx.at;
    s.seq = st.nextSeq++;
    s.updatedAt = tx.at;
    touchOrder(tx, s);
    q.push(s);
    tx.events[tx.nEvents++] = {
      type: 'OrderTriggered',
      orderId: s.id,
      user: s.acct.id,
      market: m.id,
      stopPrice: s.stopPrice as bigint,
      lastPrice: last,
      at: tx.at,
    };
  }
}

function drain(side: BookSide, head: BookNode | null, q: Order[]): void {
  let n = head;
  while (n !== null) {
    const next: BookNode | null = n.next;
    side.remove(n);
    q.push(n as Order);
    n = next;
  }
}

/** Run the taker, then every stop it triggers (and those they trigger), in trigger order. */
export function execute(st: CoreState, tx: Tx, m: MarketRt, o: Order | null): void {
  if (o !== null) runTaker(st, tx, m, o);
  collectTriggers(st, tx, m);
  const q = tx.triggered;
  for (let i = 0; i < q.length; i++) {
    runTaker(st, tx, m, q[i] as Order);
    collectTriggers(st, tx, m);
  }
  if (q.length !== 0) q.length = 0;
}
