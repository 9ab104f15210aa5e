import type pg from 'pg';
import type { Clock } from '../../clock.ts';
import { SharedWindowLimiter } from '../../http/shared-limits.ts';

/**
 * A sliding-window counter per key (e.g. an account identifier), in memory. Complements the per-IP limits: an
 * attacker spreading requests over many addresses still meets one limit per account.
 */
export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    /** The app's clock (see clock.ts). */
    private readonly now: () => number,
  ) {}

  /** Records one attempt; false when the key has already used up its window. */
  take(key: string): boolean {
    const now = this.now();
    const recent = (this.hits.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (recent.length >= this.max) {
      this.hits.set(key, recent);
      return false;
    }
    recent.push(now);
    this.hits.set(key, recent);
    if (this.hits.size > 100_000) this.prune(now);
    return true;
  }

  private prune(now: number): void {
    for (const [key, times] of this.hits)
      if (times.every((t) => now - t >= this.windowMs)) this.hits.delete(key);
  }
}

// One set of limiters per app (its pool): several apps in one process (the test suite) never share counters.
const inMemory = new WeakMap<pg.Pool, Map<string, SlidingWindowLimiter>>();
const inDatabase = new WeakMap<pg.Pool, Map<string, SharedWindowLimiter>>();

/** The limiter called `name` of the app that owns `db`, made by `make` the first time. */
function named<L>(store: WeakMap<pg.Pool, Map<string, L>>, db: pg.Pool, name: string, make: () => L): L {
  const limiters = store.get(db) ?? new Map<string, L>();
  store.set(db, limiters);
  const limiter = limiters.get(name) ?? make();
  limiters.set(name, limiter);
  return limiter;
}

/**
 * The attempts-per-window limit called `name` (one per use: login, pending phone change, ...): in memory, or in
 * PostgreSQL when several api processes must count together (`config.split`).
 */
export function windowLimiter(
  deps: { db: pg.Pool; config: { split?: boolean }; clock: Clock },
  name: string,
  max: number,
  windowMs: number,
): { take(key: string): boolean | Promise<boolean> } {
  const { clock } = deps;
  if (!deps.config.split)
    return named(inMemory, deps.db, name, () => new SlidingWindowLimiter(max, windowMs, () => clock.now()));
  return named(inDatabase, deps.db, name, () => new SharedWindowLimiter(deps.db, name, max, windowMs, clock));
}
