/** Money conservation and structural invariants, for tests and audits. */
import type { BookSide, Level } from './book.ts';
import type { Engine } from './engine.ts';
import type { Order } from './order.ts';
import type { OrderIndex } from './order-index.ts';

/** Per-currency totals. */
export interface CurrencyTotals {
  currency: string;
  /** Σ over users of balance + locked. */
  users: bigint;
  fees: bigint;
  card: bigint;
  swap: bigint;
  /** Net external flow: credits − debits − settled withdrawals (net of fee) + liquidity funded − drained. */
  netExternalFlow: bigint;
}

/** Result of {@link checkConservation}. */
export interface ConservationReport {
  ok: boolean;
  /** Human-readable descriptions of every violated invariant. */
  errors: string[];
  totals: CurrencyTotals[];
}

/**
 * Check, per currency: Σ users (balance + locked) + fees + card float + swap liquidity == net external flow
 * (equivalently Σ users + fees + swap == net external flow − card loads). Also checks that no balance is
 * negative, every locked unit belongs to an open order or held withdrawal, and the books are consistent
 * (level totals, FIFO links, no crossed book, untriggered stops outside the book).
 */
export function checkConservation(engine: Engine): ConservationReport {
  const st = engine.core;
  const errors: string[] = [];
  const n = st.curIds.length;
  const users = new Array<bigint>(n).fill(0n);
  const held = new Map<string, bigint>();
  const addHeld = (user: number, ci: number, x: bigint) => {
    const k = `${user}:${ci}`;
    held.set(k, (held.get(k) ?? 0n) + x);
  };
  for (const o of st.orders.values()) {
    checkOrder(o, errors);
    addHeld(o.acct.id, o.side === 'buy' ? o.mkt.quoteIdx : o.mkt.baseIdx, o.locked);
  }
  for (const w of st.withdrawals.values()) addHeld(w.acct.id, w.cur, w.amount);
  for (const a of st.users.values()) {
    for (let ci = 0; ci < n; ci++) {
      const main = a.main[ci] as bigint;
      const locked = a.locked[ci] as bigint;
      const cur = st.curIds[ci];
      if (main < 0n) errors.push(`user ${a.id} ${cur}: negative balance ${main}`);
      if (locked < 0n) errors.push(`user ${a.id} ${cur}: negative locked ${locked}`);
      if ((held.get(`${a.id}:${ci}`) ?? 0n) !== locked) {
        errors.push(`user ${a.id} ${cur}: locked ${locked} != holds ${held.get(`${a.id}:${ci}`) ?? 0n}`);
      }
      users[ci] = (users[ci] as bigint) + main + locked;
    }
  }
  const totals: CurrencyTotals[] = [];
  for (let ci = 0; ci < n; ci++) {
    const t: CurrencyTotals = {
      currency: st.curIds[ci] as string,
      users: users[ci] as bigint,
      fees: st.sys.fees[ci] as bigint,
      card: st.sys.card[ci] as bigint,
      swap: st.sys.swap[ci] as bigint,
      netExternalFlow: -(st.sys.external[ci] as bigint),
    };
    totals.push(t);
    if (t.users + t.fees + t.card + t.swap !== t.netExternalFlow) {
      errors.push(
        `${t.currency}: users+fees+card+swap ${t.users + t.fees + t.card + t.swap} != net ${t.netExternalFlow}`,
      );
    }
    for (const k of ['fees', 'card', 'swap'] as const) {
      if (t[k] < 0n) errors.push(`${t.currency}: negative ${k} account`);
    }
  }
  for (const m of st.markets.values()) {
    const b = m.book.bids.best();
    const a = m.book.asks.best();
    if (b !== undefined && a !== undefined && b.price >= a.price) errors.push(`${m.id}: crossed book`);
    for (const [side, name, stops] of [
      [m.book.bids, 'bids', false],
      [m.book.asks, 'asks', false],
      [m.stopsDown, 'stopsDown', true],
      [m.stopsUp, 'stopsUp', true],
    ] as const) {
      checkSide(side, `${m.id} ${name}`, stops, st.orders, errors);
    }
  }
  return { ok: errors.length === 0, errors, totals };
}

function checkOrder(o: Order, errors: string[]): void {
  if (o.remainingVolume <= 0n) errors.push(`order ${o.id}: open with remaining ${o.remainingVolume}`);
  if (o.remainingVolume + o.executedVolume !== o.originVolume) errors.push(`order ${o.id}: volumes`);
  if (o.locked < 0n) errors.push(`order ${o.id}: negative lock`);
  if (o.level === null) errors.push(`order ${o.id}: open but not in book or stop set`);
  const p = o.untriggeredStop ? (o.price ?? o.stopPrice) : o.price;
  if (o.side === 'buy' && p !== null && o.locked !== p * o.remainingVolume * o.mkt.qm) {
    errors.push(`order ${o.id}: lock ${o.locked} != price·remaining`);
  }
  if (o.side === 'sell' && o.locked !== o.remainingVolume * o.mkt.bm) errors.push(`order ${o.id}: sell lock`);
  const want = o.executedVolume === 0n ? 'wait' : 'pending';
  if (o.state !== want) errors.push(`order ${o.id}: state ${o.state}, expected ${want}`);
}

function checkSide(
  side: BookSide,
  name: string,
  stops: boolean,
  orders: OrderIndex<Order>,
  errors: string[],
) {
  let count = 0;
  for (let i = 0; i < side.levels.length; i++) {
    const l = side.levels[i] as Level;
    const prev = side.levels[i - 1];
    if (prev !== undefined && !side.better(l.price, prev.price)) errors.push(`${name}: levels out of order`);
    if (side.byPrice.get(l.price) !== l) errors.push(`${name}: level map mismatch at ${l.price}`);
    let vol = 0n;
    let c = 0;
    let prevNode = null;
    for (let nd = l.head; nd !== null; nd = nd.next) {
      const o = nd as Order;
      if (nd.prev !== prevNode || nd.level !== l) errors.push(`${name}: broken links at ${l.price}`);
      if (orders.get(o.id) !== o) errors.push(`${name}: order ${o.id} in book but not open`);
      if (o.untriggeredStop !== stops) errors.push(`${name}: order ${o.id} on the wrong structure`);
      vol += nd.remainingVolume;
      c++;
      prevNode = nd;
    }
    if (l.tail !== prevNode) errors.push(`${name}: tail mismatch at ${l.price}`);
    if (vol !== l.volume || c !== l.count || c === 0) errors.push(`${name}: level totals at ${l.price}`);
    count += c;
  }
  if (count !== side.size || side.byPrice.size !== side.levels.length) errors.push(`${name}: size mismatch`);
}
