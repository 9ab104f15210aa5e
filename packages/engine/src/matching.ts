/**
 * The hot path: running an incoming (taker) order against the book, settling trades, closing orders and
 * triggering stop orders.
 */
import type { BookNode, BookSide } from './book.ts';
import { release, touch } from './ledger.ts';
import type { CoreState, MarketRt, Order, Tx } from './state.ts';
import type { CancelReason } from './types.ts';

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

function forget(st: CoreState, o: Order): void {
  st.orders.delete(o.id);
  o.acct.unlinkOrder(o);
}

/** Close a fully filled order: release any leftover hold (market buys), emit OrderDone. */
export function finishDone(st: CoreState, tx: Tx, o: Order): void {
  if (o.locked !== 0n) {
    release(st, tx, o.acct, holdCur(o), o.locked);
    o.locked = 0n;
  }
  o.state = 'done';
  o.updatedAt = tx.at;
  forget(st, o);
  touchOrder(tx, o);
  tx.emit({ type: 'OrderDone', orderId: o.id, user: o.acct.id, market: o.mkt.id, at: tx.at });
}

/** Cancel an open order wherever it is (book, stop set, or in flight): release its hold, emit OrderCancelled. */
export function cancelOpen(st: CoreState, tx: Tx, o: Order, reason: CancelReason): void {
  if (o.level !== null) o.level.side.remove(o);
  if (o.locked !== 0n) {
    release(st, tx, o.acct, holdCur(o), o.locked);
    o.locked = 0n;
  }
  o.state = 'cancel';
  o.updatedAt = tx.at;
  forget(st, o);
  touchOrder(tx, o);
  tx.emit({
    type: 'OrderCancelled',
    orderId: o.id,
    user: o.acct.id,
    market: o.mkt.id,
    reason,
    at: tx.at,
  });
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
  const base = m.bm === 1n ? v : v * m.bm;
  const quote = m.qm === 1n ? p * v : p * v * m.qm;
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

  // Buyer pays the quote out of its hold; a better price than the buyer's limit releases the difference.
  buy.locked -= quote;
  B.locked[qi] = (B.locked[qi] as bigint) - quote;
  tx.post(B.lockedKey, qCode, -quote);
  if (takerBuys && taker.price !== null && taker.price !== p) {
    const imp = (taker.price - p) * v * m.qm;
    buy.locked -= imp;
    B.locked[qi] = (B.locked[qi] as bigint) - imp;
    B.main[qi] = (B.main[qi] as bigint) + imp;
    tx.post(B.lockedKey, qCode, -imp);
    tx.post(B.mainKey, qCode, imp);
  }
  // Seller delivers the base out of its hold.
  sell.locked -= base;
  S.locked[bi] = (S.locked[bi] as bigint) - base;
  tx.post(S.lockedKey, bCode, -base);

  const buyFee = feeOf(base, takerBuys ? taker.takerFee : maker.makerFee);
  const sellFee = feeOf(quote, takerBuys ? maker.makerFee : taker.takerFee);
  const baseNet = base - buyFee;
  const quoteNet = quote - sellFee;
  B.main[bi] = (B.main[bi] as bigint) + baseNet;
  if (baseNet !== 0n) tx.post(B.mainKey, bCode, baseNet);
  S.main[qi] = (S.main[qi] as bigint) + quoteNet;
  if (quoteNet !== 0n) tx.post(S.mainKey, qCode, quoteNet);
  if (buyFee !== 0n) {
    fees[bi] = (fees[bi] as bigint) + buyFee;
    tx.post('fees', bCode, buyFee);
  }
  if (sellFee !== 0n) {
    fees[qi] = (fees[qi] as bigint) + sellFee;
    tx.post('fees', qCode, sellFee);
  }
  touch(tx, B, qi);
  touch(tx, B, bi);
  touch(tx, S, bi);
  touch(tx, S, qi);

  // Orders.
  const at = tx.at;
  opp.reduce(maker, v);
  taker.remainingVolume -= v;
  maker.executedVolume += v;
  taker.executedVolume += v;
  maker.tradesCount++;
  taker.tradesCount++;
  buy.quoteTotal += quote;
  sell.quoteTotal += quote;
  maker.updatedAt = at;
  taker.updatedAt = at;
  maker.state = 'pending';
  taker.state = 'pending';
  touchOrder(tx, maker);
  touchOrder(tx, taker);
  m.lastPrice = p;

  tx.emit({
    type: 'Trade',
    id: st.nextTradeId++,
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
  });
}

/**
 * Run a taker order (new, or a triggered stop) against the opposite side: price-time priority, trade at the
 * maker's price, self-trade prevention (the taker's remainder is cancelled when it meets its own user's
 * resting order). Afterwards the order is done, rests (limit-priced orders), or its remainder is cancelled.
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
      if (buy && limit === null) {
        // Market buys spend at most their hold.
        const unit = p * m.qm;
        if (unit * v > o.locked) {
          v = o.locked / unit;
          if (v === 0n) {
            reason = 'budget';
            break outer;
          }
        }
      }
      const next: BookNode | null = node.next;
      settle(st, tx, m, opp, maker, o, p, v);
      if (maker.remainingVolume === 0n) {
        opp.remove(maker);
        finishDone(st, tx, maker);
      }
      if (o.remainingVolume === 0n) break outer;
      node = next;
    }
  }
  if (o.remainingVolume === 0n) {
    finishDone(st, tx, o);
  } else if (reason === null && limit !== null) {
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
    tx.emit({
      type: 'OrderTriggered',
      orderId: s.id,
      user: s.acct.id,
      market: m.id,
      stopPrice: s.stopPrice as bigint,
      lastPrice: last,
      at: tx.at,
    });
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
  q.length = 0;
}
