/**
 * One side of an order book (or a set of untriggered stop orders keyed by stop price).
 *
 * - Price levels are keyed by integer price in a Map (O(1) lookup) and kept in an array sorted so that the
 *   best level is LAST: appending or removing the best level is O(1); other levels use binary search.
 * - Each level is a FIFO doubly-linked list of nodes; nodes carry their own links, so append, remove and
 *   fill are O(1) whatever the depth of the level.
 * - `work` counts nodes and levels touched (plus binary-search steps), so tests can assert flat cost.
 */

/** An element of a level's FIFO list (orders implement it). */
export interface BookNode {
  prev: BookNode | null;
  next: BookNode | null;
  level: Level | null;
  /** Remaining volume in steps; summed into the level's `volume`. */
  remainingVolume: bigint;
}

/** A price level: FIFO list of nodes with running totals. */
export class Level {
  head: BookNode | null = null;
  tail: BookNode | null = null;
  count = 0;
  volume = 0n;
  constructor(
    readonly price: bigint,
    readonly side: BookSide,
  ) {}
}

/** One side of a book. `bestIsHighest`: bids and "fall-triggered" stops; otherwise asks and "rise" stops. */
export class BookSide {
  /** Sorted so that the best level is at the end. */
  readonly levels: Level[] = [];
  readonly byPrice = new Map<bigint, Level>();
  /** Number of resting nodes. */
  size = 0;
  /** Nodes/levels touched plus search steps; a cost measure independent of wall time. */
  work = 0;

  constructor(readonly bestIsHighest: boolean) {}

  /** The best level, or undefined when empty. O(1). */
  best(): Level | undefined {
    // (never index -1: that is a slow named-property lookup on an array)
    const n = this.levels.length;
    return n === 0 ? undefined : this.levels[n - 1];
  }

  /** Append a node at the tail of the level for `price` (creating the level if needed). */
  append(node: BookNode, price: bigint): void {
    this.work++;
    const n = this.levels.length;
    const top = n === 0 ? undefined : this.levels[n - 1];
    let level = top !== undefined && top.price === price ? top : this.byPrice.get(price);
    if (level === undefined) {
      level = new Level(price, this);
      this.byPrice.set(price, level);
      this.insertLevel(level);
    }
    node.level = level;
    node.next = null;
    node.prev = level.tail;
    if (level.tail === null) level.head = node;
    else level.tail.next = node;
    level.tail = node;
    level.count++;
    level.volume += node.remainingVolume;
    this.size++;
  }

  /** Unlink a node (anywhere in its level) and drop the level when it empties. O(1) for the node. */
  remove(node: BookNode): void {
    this.work++;
    const level = node.level;
    if (level === null || level.side !== this) throw new Error('book: node not on this side');
    if (node.prev === null) level.head = node.next;
    else node.prev.next = node.next;
    if (node.next === null) level.tail = node.prev;
    else node.next.prev = node.prev;
    node.prev = null;
    node.next = null;
    node.level = null;
    level.count--;
    level.volume -= node.remainingVolume;
    this.size--;
    if (level.count === 0) this.removeLevel(level);
  }

  /** Account for `v` steps filled from a node still resting on this side. */
  reduce(node: BookNode, v: bigint): void {
    this.work++;
    node.remainingVolume = node.remainingVolume === v ? 0n : node.remainingVolume - v;
    (node.level as Level).volume -= v;
  }

  /** Whether `a` is a better price than `b` on this side. */
  better(a: bigint, b: bigint): boolean {
    return this.bestIsHighest ? a > b : a < b;
  }

  private insertLevel(level: Level): void {
    const arr = this.levels;
    const n = arr.length;
    const top = arr[n - 1];
    // Fast path: a new best level goes at the end.
    if (top === undefined || this.better(level.price, top.price)) {
      arr.push(level);
      return;
    }
    arr.splice(this.search(level.price), 0, level);
  }

  private removeLevel(level: Level): void {
    this.byPrice.delete(level.price);
    const arr = this.levels;
    if (arr[arr.length - 1] === level) {
      arr.pop();
      return;
    }
    const i = this.search(level.price);
    if (arr[i] !== level) throw new Error('book: level index corrupt');
    arr.splice(i, 1);
  }

  /** Index of the first level that is not worse than `price` (levels are sorted worst → best). */
  private search(price: bigint): number {
    const arr = this.levels;
    let lo = 0;
    let hi = arr.length;
    while (lo < hi) {
      this.work++;
      const mid = (lo + hi) >>> 1;
      // worse-than-price levels come first
      if (this.better(price, (arr[mid] as Level).price)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Levels from best to worst (allocates; for snapshots, depth and tests). */
  levelsBestFirst(): Level[] {
    return this.levels.slice().reverse();
  }

  /** Nodes of a level in FIFO order (allocates; for snapshots and tests). */
  static nodes(level: Level): BookNode[] {
    const out: BookNode[] = [];
    for (let n = level.head; n !== null; n = n.next) out.push(n);
    return out;
  }
}

/** Aggregated depth: [price, volume] pairs best first, at most `limit` levels. */
export function depth(side: BookSide, limit: number): Array<[bigint, bigint]> {
  const out: Array<[bigint, bigint]> = [];
  const arr = side.levels;
  for (let i = arr.length - 1; i >= 0 && out.length < limit; i--) {
    const l = arr[i] as Level;
    out.push([l.price, l.volume]);
  }
  return out;
}

/** One market's order book: bids and asks sharing the work counter reading. */
export class OrderBook {
  readonly bids = new BookSide(true);
  readonly asks = new BookSide(false);
  /** Total work on both sides. */
  get work(): number {
    return this.bids.work + this.asks.work;
  }
}
