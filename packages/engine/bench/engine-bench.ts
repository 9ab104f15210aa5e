/**
 * Engine benchmark: the same command streams through our engine and through `nodejs-order-book`.
 *
 *   npx tsx packages/engine/bench/engine-bench.ts [--mixed=1000000] [--deep=100000] [--deep-ops=1000] [--repeats=1]
 *
 * Workloads (generated from a seeded PRNG here, never in the engine):
 * - mixed: 70% limit orders around a random-walk mid price, 20% cancels of live orders, 10% market orders;
 * - deep-insert: N orders at one price;
 * - deep-middle: then cancels of orders in the middle of that level and market fills at its head.
 * Cancel targets are chosen from orders that are live at that point (a generation pass through our engine
 * decides; the engine is deterministic, so the timed run assigns the same ids).
 */
import { OrderBook as PeerBook, Side as PeerSide } from 'nodejs-order-book';
import { type Command, Engine, type EngineConfig, type PlaceOrder } from '../src/index.ts';

/** Options of {@link runEngineBench}. */
export interface BenchOptions {
  /** Commands in the mixed workload (default 1,000,000). */
  mixedOps?: number;
  /** Orders resting at one price in the deep workload (default 100,000). */
  deepOrders?: number;
  /** Cancels + fills in the middle of the deep level (default 1,000; the peer's cancel is O(level depth)). */
  deepOps?: number;
  /** Timed runs per workload and implementation; the best is reported (default 1). */
  repeats?: number;
  seed?: number;
  /** Run the peer library too (default true). */
  peer?: boolean;
  /** Print the table (default true when run from the command line). */
  print?: boolean;
}

/** One row of the result table. */
export interface BenchRow {
  workload: string;
  ops: number;
  oursOpsPerSec: number;
  peerOpsPerSec: number | null;
  /** ours / peer. */
  ratio: number | null;
  oursTrades: number;
  peerTrades: number | null;
  /** Resting orders and price levels in our book at the end (how deep the levels were). */
  bookOrders: number;
  bookLevels: number;
}

type PeerOp =
  | { k: 'limit'; id: string; side: PeerSide; size: number; price: number }
  | { k: 'market'; side: PeerSide; size: number }
  | { k: 'cancel'; id: string };

const USERS = 1000;
const AT = 1_700_000_000_000;

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function benchConfig(): EngineConfig {
  return {
    currencies: [
      { id: 'btc', precision: 8 },
      { id: 'usdt', precision: 6 },
    ],
    markets: [
      {
        id: 'btcusdt',
        base: 'btc',
        quote: 'usdt',
        pricePrecision: 2,
        amountPrecision: 4,
        minPrice: 1n,
        maxPrice: 10n ** 12n,
        minAmount: 1n,
        state: 'enabled',
      },
    ],
  };
}

export function fundedEngine(): Engine {
  const e = new Engine(benchConfig());
  for (let u = 1; u <= USERS; u++) {
    e.apply({ type: 'Credit', user: u, currency: 'usdt', amount: 10n ** 20n, kind: 'deposit', at: AT });
    e.apply({ type: 'Credit', user: u, currency: 'btc', amount: 10n ** 20n, kind: 'deposit', at: AT });
  }
  return e;
}

/** A live-order set with O(1) add, remove and random pick. */
class LiveSet {
  private ids: number[] = [];
  private pos = new Map<number, number>();
  get size(): number {
    return this.ids.length;
  }
  add(id: number): void {
    this.pos.set(id, this.ids.length);
    this.ids.push(id);
  }
  delete(id: number): void {
    const i = this.pos.get(id);
    if (i === undefined) return;
    const last = this.ids.pop() as number;
    if (last !== id) {
      this.ids[i] = last;
      this.pos.set(last, i);
    }
    this.pos.delete(id);
  }
  pick(r: number): number {
    return this.ids[Math.floor(r * this.ids.length)] as number;
  }
}

/** Apply through a generation engine, tracking which orders are live. */
function track(e: Engine, c: Command, live: LiveSet): number | null {
  const r = e.apply(c);
  for (const ev of r.events) {
    if (ev.type === 'OrderDone' || ev.type === 'OrderCancelled') live.delete(ev.orderId);
  }
  if (r.orderId !== null && e.order(r.orderId) !== undefined) live.add(r.orderId);
  return r.orderId;
}

function toPeer(c: Command, id: number | null): PeerOp | null {
  if (c.type === 'CancelOrder') return { k: 'cancel', id: String(c.orderId) };
  if (c.type !== 'PlaceOrder') return null;
  const side = c.side === 'buy' ? PeerSide.BUY : PeerSide.SELL;
  if (c.ordType === 'market') return { k: 'market', side, size: Number(c.volume) };
  return { k: 'limit', id: String(id), side, size: Number(c.volume), price: Number(c.price) };
}

export interface Workload {
  name: string;
  /** Commands applied (untimed) before the timed part, e.g. to build a deep level. */
  setup: Command[];
  setupPeer: PeerOp[];
  cmds: Command[];
  peer: PeerOp[];
}

export function genMixed(n: number, seed: number): Workload {
  const rnd = mulberry32(seed);
  const e = fundedEngine();
  const live = new LiveSet();
  const cmds: Command[] = [];
  const peer: PeerOp[] = [];
  let mid = 3_000_000; // 30,000.00 in ticks
  for (let i = 0; i < n; i++) {
    if (rnd() < 0.1) mid += rnd() < 0.5 ? -1 : 1;
    const user = 1 + Math.floor(rnd() * USERS);
    const r = rnd();
    let c: Command;
    if (r < 0.2 && live.size > 0) {
      const id = live.pick(rnd());
      const o = e.order(id) as { user: number };
      c = { type: 'CancelOrder', user: o.user, orderId: id, at: AT + i };
    } else if (r < 0.3) {
      const side = rnd() < 0.5 ? 'buy' : 'sell';
      c = {
        type: 'PlaceOrder',
        user,
        market: 'btcusdt',
        side,
        ordType: 'market',
        volume: BigInt(1 + Math.floor(rnd() * 50)),
        at: AT + i,
      };
    } else {
      const side = rnd() < 0.5 ? 'buy' : 'sell';
      const off = Math.floor(rnd() * 40) - 8; // ~20% of limits cross the mid
      const price = side === 'buy' ? mid - off : mid + off;
      const volume = BigInt(1 + Math.floor(rnd() * 100));
      c = {
        type: 'PlaceOrder',
        user,
        market: 'btcusdt',
        side,
        ordType: 'limit',
        price: BigInt(price),
        volume,
        at: AT + i,
      } as PlaceOrder;
    }
    const id = track(e, c, live);
    cmds.push(c);
    const p = toPeer(c, id);
    if (p !== null) peer.push(p);
  }
  return { name: 'mixed 70/20/10', setup: [], setupPeer: [], cmds, peer };
}

export function genDeep(orders: number, ops: number, seed: number): Workload[] {
  const rnd = mulberry32(seed);
  const e = fundedEngine();
  const live = new LiveSet();
  const setup: Command[] = [];
  const setupPeer: PeerOp[] = [];
  const ids: number[] = [];
  for (let i = 0; i < orders; i++) {
    const c: Command = {
      type: 'PlaceOrder',
      user: 1 + (i % USERS),
      market: 'btcusdt',
      side: 'sell',
      ordType: 'limit',
      price: 3_000_000n,
      volume: 10n,
      at: AT + i,
    };
    const id = track(e, c, live) as number;
    ids.push(id);
    setup.push(c);
    setupPeer.push(toPeer(c, id) as PeerOp);
  }
  const cmds: Command[] = [];
  const peer: PeerOp[] = [];
  for (let i = 0; i < ops; i++) {
    let c: Command;
    if (i % 2 === 0) {
      // cancel an order from the middle half of the level
      let id = ids[Math.floor(orders / 4 + rnd() * (orders / 2))] as number;
      while (e.order(id) === undefined) id++;
      c = {
        type: 'CancelOrder',
        user: (e.order(id) as { user: number }).user,
        orderId: id,
        at: AT + orders + i,
      };
    } else {
      // a market buy filling the head order and part of the next
      c = {
        type: 'PlaceOrder',
        user: USERS + 1,
        market: 'btcusdt',
        side: 'buy',
        ordType: 'market',
        volume: 15n,
        at: AT + orders + i,
      };
    }
    const id = track(e, c, live);
    cmds.push(c);
    peer.push(toPeer(c, id) as PeerOp);
  }
  return [
    { name: `deep: ${orders} orders at one price`, setup: [], setupPeer: [], cmds: setup, peer: setupPeer },
    { name: 'deep: cancels/fills in the middle', setup, setupPeer, cmds, peer },
  ];
}

export function runOurs(w: Workload): { secs: number; trades: number; orders: number; levels: number } {
  const e = fundedEngine();
  e.apply({ type: 'Credit', user: USERS + 1, currency: 'usdt', amount: 10n ** 20n, kind: 'deposit', at: AT });
  for (const c of w.setup) e.apply(c);
  const cmds = w.cmds;
  let trades = 0;
  const t0 = performance.now();
  for (let i = 0; i < cmds.length; i++) {
    const r = e.apply(cmds[i] as Command);
    for (const ev of r.events) if (ev.type === 'Trade') trades++;
  }
  const secs = (performance.now() - t0) / 1000;
  const d = e.depth('btcusdt', Number.MAX_SAFE_INTEGER);
  return {
    secs,
    trades,
    orders: e.bookOrderIds('btcusdt', 'buy').length + e.bookOrderIds('btcusdt', 'sell').length,
    levels: d.bids.length + d.asks.length,
  };
}

function peerApply(ob: PeerBook, p: PeerOp): number {
  if (p.k === 'limit') return ob.limit({ id: p.id, side: p.side, size: p.size, price: p.price }).done.length;
  if (p.k === 'market') return ob.market({ side: p.side, size: p.size }).done.length;
  ob.cancel(p.id);
  return 0;
}

export function runPeer(w: Workload): { secs: number; trades: number } {
  const ob = new PeerBook();
  for (const p of w.setupPeer) peerApply(ob, p);
  const ops = w.peer;
  let done = 0;
  const t0 = performance.now();
  for (let i = 0; i < ops.length; i++) done += peerApply(ob, ops[i] as PeerOp);
  return { secs: (performance.now() - t0) / 1000, trades: done };
}

/** Run the workloads through both books; returns one row per workload. */
export function runEngineBench(opts: BenchOptions = {}): BenchRow[] {
  const seed = opts.seed ?? 42;
  const withPeer = opts.peer ?? true;
  const workloads = [
    genMixed(opts.mixedOps ?? 1_000_000, seed),
    ...genDeep(opts.deepOrders ?? 100_000, opts.deepOps ?? 1_000, seed + 1),
  ];
  // Warm up both implementations on a slice of the mixed stream.
  const first = workloads[0] as Workload;
  const warm: Workload = { ...first, cmds: first.cmds.slice(0, 100_000), peer: first.peer.slice(0, 100_000) };
  runOurs(warm);
  if (withPeer) runPeer(warm);
  const rows: BenchRow[] = [];
  const repeats = Math.max(1, opts.repeats ?? 1);
  const best = <T extends { secs: number }>(run: () => T): T => {
    let b = run();
    for (let i = 1; i < repeats; i++) {
      const r = run();
      if (r.secs < b.secs) b = r;
    }
    return b;
  };
  for (const w of workloads) {
    const ours = best(() => runOurs(w));
    const peer = withPeer ? best(() => runPeer(w)) : null;
    const oursOps = w.cmds.length / ours.secs;
    const peerOps = peer === null ? null : w.peer.length / peer.secs;
    rows.push({
      workload: w.name,
      ops: w.cmds.length,
      oursOpsPerSec: Math.round(oursOps),
      peerOpsPerSec: peerOps === null ? null : Math.round(peerOps),
      ratio: peerOps === null ? null : Math.round((oursOps / peerOps) * 100) / 100,
      oursTrades: ours.trades,
      peerTrades: peer?.trades ?? null,
      bookOrders: ours.orders,
      bookLevels: ours.levels,
    });
  }
  if (opts.print ?? false) printTable(rows);
  return rows;
}

/** Print rows as a side-by-side table. */
export function printTable(rows: BenchRow[]): void {
  const fmt = (n: number | null) => (n === null ? '-' : n.toLocaleString('en-US'));
  const head = ['workload', 'ops', 'ours ops/s', 'peer ops/s', 'ratio', 'our book at end'];
  const body = rows.map((r) => [
    r.workload,
    fmt(r.ops),
    fmt(r.oursOpsPerSec),
    fmt(r.peerOpsPerSec),
    r.ratio === null ? '-' : `${r.ratio}x`,
    `${fmt(r.bookOrders)} orders / ${fmt(r.bookLevels)} levels`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] as string).length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number)))
      .join('  ');
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const b of body) console.log(line(b));
  console.log(
    'peer = nodejs-order-book 10.1.1 (float prices, no balances/fees/events); ours = full engine (bigint, holds, fees, postings, events)',
  );
}

function arg(name: string): number | undefined {
  const a = process.argv.find((x) => x.startsWith(`--${name}=`));
  return a === undefined ? undefined : Number(a.slice(name.length + 3));
}

if (process.argv[1]?.endsWith('engine-bench.ts')) {
  runEngineBench({
    mixedOps: arg('mixed'),
    deepOrders: arg('deep'),
    deepOps: arg('deep-ops'),
    repeats: arg('repeats'),
    print: true,
  });
}
