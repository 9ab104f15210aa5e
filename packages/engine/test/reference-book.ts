/**
 * A deliberately naive reference exchange for the differential test: one market (aaa/bbb of gen.ts), plain
 * arrays, linear scans, a Map of balances. It models price-time priority, self-trade prevention, market buy
 * budgets, stop triggers, and the limit order options (time in force `gtc`/`ioc`/`fok`, post-only) from their
 * definitions, independently of the engine's code.
 */
import { type Command, type PlaceOrder, Rejection, type Side, type TimeInForce } from '../src/index.ts';
import { BM, QM } from './gen.ts';

type RType = 'limit' | 'market' | 'stop_loss_limit' | 'take_profit_limit' | 'stop_loss_order';
/** Why the reference cancelled an order (the engine's reasons). */
export type RCancelReason = 'user' | 'self_trade' | 'unfilled' | 'budget' | 'fill_or_kill' | 'post_only';
export interface ROrder {
  id: number;
  user: number;
  side: Side;
  type: RType;
  price: bigint | null;
  stop: bigint | null;
  remaining: bigint;
  executed: bigint;
  locked: bigint;
  seq: number;
  triggered: boolean;
  inBook: boolean;
  makerFee: bigint;
  takerFee: bigint;
  tif: TimeInForce;
  postOnly: boolean;
}
export type RTrade = [
  id: number,
  price: bigint,
  volume: bigint,
  maker: number,
  taker: number,
  mFee: bigint,
  tFee: bigint,
];

const fee = (x: bigint, r: bigint) => (x * r + 999_999n) / 1_000_000n;
const min = (a: bigint, b: bigint) => (a <= b ? a : b);
const isStop = (t: RType) => t !== 'limit' && t !== 'market';

/** The rejection for the order options of a PlaceOrder, spelled out rule by rule. */
function optionsCode(c: PlaceOrder): string | null {
  const tif = c.timeInForce;
  if (tif !== undefined && !['gtc', 'ioc', 'fok'].includes(tif)) return Rejection.InvalidTimeInForce;
  if (tif !== undefined && c.ordType === 'market') return Rejection.MarketOrderTimeInForce;
  if ((tif === 'ioc' || tif === 'fok') && c.ordType !== 'limit') return Rejection.StopOrderTimeInForce;
  if (c.postOnly !== undefined && typeof c.postOnly !== 'boolean') return Rejection.InvalidPostOnly;
  if (c.postOnly === true && c.ordType !== 'limit') return Rejection.PostOnlyNotLimit;
  if (c.postOnly === true && (tif === 'ioc' || tif === 'fok')) return Rejection.PostOnlyTimeInForce;
  return null;
}

/** The naive reference exchange for one market (aaa/bbb). */
export class Reference {
  bal = new Map<string, bigint>();
  open: ROrder[] = [];
  nextId = 1;
  nextTrade = 1;
  nextSeq = 1;
  last: bigint | null = null;
  trades: RTrade[] = [];
  /** Every cancellation so far: [order id, reason]. */
  cancels: Array<[number, RCancelReason]> = [];

  get(k: string): bigint {
    return this.bal.get(k) ?? 0n;
  }
  add(k: string, x: bigint): void {
    this.bal.set(k, this.get(k) + x);
  }
  holdCur(o: { side: Side }): string {
    return o.side === 'buy' ? 'bbb' : 'aaa';
  }
  resting(): ROrder[] {
    return this.open.filter((o) => o.inBook);
  }
  /** Opposite resting orders in priority order for a taker on `side`. */
  opposite(side: Side): ROrder[] {
    return this.resting()
      .filter((o) => o.side !== side)
      .sort((a, b) => {
        const pa = a.price as bigint;
        const pb = b.price as bigint;
        if (pa !== pb) return side === 'buy' ? (pa < pb ? -1 : 1) : pa > pb ? -1 : 1;
        return a.seq - b.seq;
      });
  }
  /** Resting opposite orders a limit taker may trade with (its price or better), in priority order. */
  crossing(o: ROrder): ROrder[] {
    const limit = o.price;
    return this.opposite(o.side).filter(
      (r) =>
        limit === null || (o.side === 'buy' ? (r.price as bigint) <= limit : (r.price as bigint) >= limit),
    );
  }
  release(o: ROrder): void {
    this.add(`${o.user}:${this.holdCur(o)}:locked`, -o.locked);
    this.add(`${o.user}:${this.holdCur(o)}:main`, o.locked);
    o.locked = 0n;
    this.open = this.open.filter((x) => x !== o);
  }
  cancel(o: ROrder, reason: RCancelReason): void {
    this.release(o);
    this.cancels.push([o.id, reason]);
  }

  apply(c: Command): string | null {
    switch (c.type) {
      case 'Credit':
        this.add(`${c.user}:${c.currency}:main`, c.amount);
        return null;
      case 'CancelOrder': {
        const o = this.open.find((x) => x.id === c.orderId && x.user === c.user);
        if (o === undefined) return Rejection.OrderNotFound;
        this.cancel(o, 'user');
        return null;
      }
      case 'CancelAll': {
        for (const o of this.open.filter(
          (x) => x.user === c.user && (c.side === undefined || x.side === c.side),
        )) {
          this.cancel(o, 'user');
        }
        return null;
      }
      case 'PlaceOrder':
        return this.place(c);
      default:
        throw new Error('unsupported');
    }
  }

  place(c: PlaceOrder): string | null {
    const type = c.ordType as RType;
    const options = optionsCode(c);
    if (options !== null) return options;
    let lock: bigint;
    if (type === 'market') {
      const opp = this.opposite(c.side);
      if (opp.length === 0) return Rejection.InsufficientLiquidity;
      if (c.side === 'sell') lock = c.volume * BM;
      else {
        lock = 0n;
        let rem = c.volume;
        for (const o of opp) {
          const take = min(rem, o.remaining);
          lock += (o.price as bigint) * take * QM;
          rem -= take;
        }
      }
    } else if (c.side === 'sell') lock = c.volume * BM;
    else lock = (c.price ?? (c.stopPrice as bigint)) * c.volume * QM;
    const cur = c.side === 'buy' ? 'bbb' : 'aaa';
    if (this.get(`${c.user}:${cur}:main`) < lock) return Rejection.InsufficientBalance;
    this.add(`${c.user}:${cur}:main`, -lock);
    this.add(`${c.user}:${cur}:locked`, lock);
    const lvl1 = c.user === 3;
    const o: ROrder = {
      id: this.nextId++,
      user: c.user,
      side: c.side,
      type,
      price: c.price ?? null,
      stop: c.stopPrice ?? null,
      remaining: c.volume,
      executed: 0n,
      locked: lock,
      seq: this.nextSeq++,
      triggered: false,
      inBook: false,
      makerFee: lvl1 ? 0n : 1000n,
      takerFee: lvl1 ? 700n : 2500n,
      tif: type === 'market' ? 'ioc' : (c.timeInForce ?? 'gtc'),
      postOnly: c.postOnly === true,
    };
    this.open.push(o);
    const refusal = type === 'limit' ? this.refusal(o) : null;
    if (refusal !== null) {
      this.cancel(o, refusal);
      return null;
    }
    const queue: ROrder[] = [];
    if (!isStop(type)) this.run(o);
    this.collect(queue);
    for (let i = 0; i < queue.length; i++) {
      this.run(queue[i] as ROrder);
      this.collect(queue);
    }
    return null;
  }

  /**
   * Post-only: any crossing resting order means it would take. Fill-or-kill: the crossing orders before the
   * first one of the same user must hold its whole volume.
   */
  refusal(o: ROrder): RCancelReason | null {
    const crossing = this.crossing(o);
    if (o.postOnly) return crossing.length > 0 ? 'post_only' : null;
    if (o.tif !== 'fok') return null;
    const own = crossing.findIndex((r) => r.user === o.user);
    const before = own < 0 ? crossing : crossing.slice(0, own);
    const available = before.reduce((sum, r) => sum + r.remaining, 0n);
    return available >= o.remaining ? null : 'fill_or_kill';
  }

  fires(o: ROrder, last: bigint): boolean {
    const stop = o.stop as bigint;
    const down = (o.type === 'take_profit_limit') === (o.side === 'buy');
    return down ? last <= stop : last >= stop;
  }

  collect(queue: ROrder[]): void {
    const last = this.last;
    if (last === null) return;
    const fired = this.open
      .filter((o) => isStop(o.type) && !o.triggered && this.fires(o, last))
      .sort((a, b) => a.id - b.id);
    for (const o of fired) {
      o.triggered = true;
      o.seq = this.nextSeq++;
      queue.push(o);
    }
  }

  run(o: ROrder): void {
    let stopped: RCancelReason | null = null;
    const marketBuy = o.side === 'buy' && o.price === null;
    while (o.remaining > 0n) {
      const m = this.crossing(o)[0];
      if (m === undefined) break;
      if (m.user === o.user) {
        stopped = 'self_trade';
        break;
      }
      const p = m.price as bigint;
      let v = min(o.remaining, m.remaining);
      if (marketBuy && p * v * QM > o.locked) {
        v = o.locked / (p * QM);
        if (v === 0n) {
          stopped = 'budget';
          break;
        }
      }
      this.fill(o, m, p, v);
      if (m.remaining === 0n) this.release(m);
    }
    if (o.remaining === 0n) this.release(o);
    else if (stopped !== null) this.cancel(o, stopped);
    else if (o.price === null || o.tif !== 'gtc') this.cancel(o, 'unfilled');
    else o.inBook = true;
  }

  /** One trade of `v` steps at price `p` between taker `o` and maker `m`. */
  fill(o: ROrder, m: ROrder, p: bigint, v: bigint): void {
    const [buy, sell] = o.side === 'buy' ? [o, m] : [m, o];
    const base = v * BM;
    const quote = p * v * QM;
    buy.locked -= quote;
    this.add(`${buy.user}:bbb:locked`, -quote);
    if (buy === o && o.price !== null) {
      const imp = (o.price - p) * v * QM;
      buy.locked -= imp;
      this.add(`${buy.user}:bbb:locked`, -imp);
      this.add(`${buy.user}:bbb:main`, imp);
    }
    sell.locked -= base;
    this.add(`${sell.user}:aaa:locked`, -base);
    const bf = fee(base, buy === o ? o.takerFee : m.makerFee);
    const sf = fee(quote, sell === o ? o.takerFee : m.makerFee);
    this.add(`${buy.user}:aaa:main`, base - bf);
    this.add(`${sell.user}:bbb:main`, quote - sf);
    this.add('fees:aaa', bf);
    this.add('fees:bbb', sf);
    this.trades.push([this.nextTrade++, p, v, m.id, o.id, buy === o ? sf : bf, buy === o ? bf : sf]);
    m.remaining -= v;
    o.remaining -= v;
    m.executed += v;
    o.executed += v;
    this.last = p;
  }
}
