/**
 * Differential test: random command streams through the engine and through a deliberately naive reference
 * exchange written here (plain arrays, linear scans, a Map of balances). Trades, rejection codes, final
 * books, open orders and balances must be identical; conservation must hold after every step.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { type Command, checkConservation, Engine, Rejection, type Side } from '../src/index.ts';
import { BM, diffConfig, fundingCommands, QM, streamArb, USERS } from './gen.ts';

type RType = 'limit' | 'market' | 'stop_loss_limit' | 'take_profit_limit' | 'stop_loss_order';
interface ROrder {
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
}
type RTrade = [
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

/** The naive reference exchange for one market (aaa/bbb). */
class Reference {
  bal = new Map<string, bigint>();
  open: ROrder[] = [];
  nextId = 1;
  nextTrade = 1;
  nextSeq = 1;
  last: bigint | null = null;
  trades: RTrade[] = [];

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
  release(o: ROrder): void {
    this.add(`${o.user}:${this.holdCur(o)}:locked`, -o.locked);
    this.add(`${o.user}:${this.holdCur(o)}:main`, o.locked);
    o.locked = 0n;
    this.open = this.open.filter((x) => x !== o);
  }

  apply(c: Command): string | null {
    switch (c.type) {
      case 'Credit':
        this.add(`${c.user}:${c.currency}:main`, c.amount);
        return null;
      case 'CancelOrder': {
        const o = this.open.find((x) => x.id === c.orderId && x.user === c.user);
        if (o === undefined) return Rejection.OrderNotFound;
        this.release(o);
        return null;
      }
      case 'CancelAll': {
        for (const o of this.open.filter(
          (x) => x.user === c.user && (c.side === undefined || x.side === c.side),
        )) {
          this.release(o);
        }
        return null;
      }
      case 'PlaceOrder':
        return this.place(c);
      default:
        throw new Error('unsupported');
    }
  }

  place(c: Extract<Command, { type: 'PlaceOrder' }>): string | null {
    const type = c.ordType as RType;
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
    };
    this.open.push(o);
    const queue: ROrder[] = [];
    if (!isStop(type)) this.run(o);
    this.collect(queue);
    for (let i = 0; i < queue.length; i++) {
      this.run(queue[i] as ROrder);
      this.collect(queue);
    }
    return null;
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
    let stopped = false;
    const marketBuy = o.side === 'buy' && o.price === null;
    while (o.remaining > 0n) {
      const m = this.opposite(o.side).find(
        (r) =>
          o.price === null ||
          (o.side === 'buy' ? (r.price as bigint) <= o.price : (r.price as bigint) >= o.price),
      );
      if (m === undefined) break;
      if (m.user === o.user) {
        stopped = true;
        break;
      }
      const p = m.price as bigint;
      let v = min(o.remaining, m.remaining);
      if (marketBuy && p * v * QM > o.locked) {
        v = o.locked / (p * QM);
        if (v === 0n) {
          stopped = true;
          break;
        }
      }
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
      if (m.remaining === 0n) this.release(m);
    }
    if (o.remaining === 0n || stopped || o.price === null) this.release(o);
    else o.inBook = true;
  }
}

/** What the streams exercised, to make sure the property is not vacuous. */
const seen = new Map<string, number>();
const count = (k: string) => seen.set(k, (seen.get(k) ?? 0) + 1);

function run(cmds: Command[]): void {
  const e = new Engine(diffConfig);
  const ref = new Reference();
  for (const c of [...fundingCommands(), ...cmds]) {
    const r = e.apply(c);
    const before = ref.trades.length;
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
      .map((o) => [o.id, o.remaining, o.executed, o.locked, o.seq]);
    expect(e.openOrders(u).map((o) => [o.id, o.remainingVolume, o.executedVolume, o.locked, o.seq])).toEqual(
      want,
    );
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
  ]) {
    expect(seen.get(k) ?? 0, k).toBeGreaterThan(20);
  }
  for (const k of [Rejection.InsufficientBalance, Rejection.InsufficientLiquidity, Rejection.OrderNotFound]) {
    expect(seen.get(k) ?? 0, k).toBeGreaterThan(20);
  }
}, 60_000);
