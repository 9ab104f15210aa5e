import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type pg from 'pg';
import { type Clock, dateOf } from '../clock.ts';
import { countHit, recordNonces, sweepNonces, sweepRateLimitHits } from './limits-repository.ts';

/**
 * What @fastify/rate-limit hands a store's `child` for a route with its own limit: the route's limit settings,
 * with the route itself as `routeInfo` (empty for a limiter made with `createRateLimit`).
 */
interface RouteLimitParams {
  routeInfo?: { method?: string | string[]; url?: string };
}

/** The counters of one route's limit: its method and path, so two limited routes never share a count. */
function routeScope(params: object): string {
  const route = (params as RouteLimitParams).routeInfo ?? {};
  return `${String(route.method ?? '*')}${route.url ?? '*'}`;
}

/** Expired rows are swept after this many counts, so the tables stay as small as the windows. */
const SWEEP_EVERY = 1000;

/** A count so far in the current window, and the window's remaining milliseconds. */
type WindowCount = { current: number; ttl: number };

/**
 * A @fastify/rate-limit store class over `count` (one hit of a key in a fixed window of `windowMs`). Each limited
 * route gets a child whose keys carry the route's scope (see routeScope).
 */
function rateLimitStore(
  count: (key: string, windowMs: number) => WindowCount | Promise<WindowCount>,
): FastifyRateLimitStoreCtor {
  class Store implements FastifyRateLimitStore {
    constructor(private readonly prefix = 'rl:') {}

    incr(
      key: string,
      callback: (error: Error | null, result?: WindowCount) => void,
      timeWindow: number,
    ): void {
      Promise.resolve()
        .then(() => count(this.prefix + key, timeWindow))
        .then(
          (result) => callback(null, result),
          (err: Error) => callback(err),
        );
    }

    // Typed as the route by the plugin, but given the route's limit settings (RouteLimitParams).
    child(params: object): FastifyRateLimitStore {
      return new Store(`${this.prefix}${routeScope(params)}:`);
    }
  }
  return Store as unknown as FastifyRateLimitStoreCtor;
}

/**
 * A store for @fastify/rate-limit in PostgreSQL, so the per-IP and per-account limits hold across api processes.
 * (It counts in fixed windows, as the plugin's own stores do.)
 */
export function sharedRateLimitStore(db: pg.Pool, clock: Clock): FastifyRateLimitStoreCtor {
  let counted = 0;
  return rateLimitStore((key, windowMs) => {
    const now = dateOf(clock);
    if (++counted % SWEEP_EVERY === 0) void sweepRateLimitHits(db, now).catch(() => {});
    return countHit(db, key, windowMs, now);
  });
}

/** Keys an in-memory store holds at most (the least recently counted go first). */
const MEMORY_STORE_KEYS = 50_000;

/**
 * A store for @fastify/rate-limit in this process's memory, counting in fixed windows. It answers each count
 * with its own snapshot: the plugin's own LocalStore hands every caller the one live counter object, so requests
 * counted in the same turn of the event loop (a burst answered from memory, with no I/O between them) all read
 * the final count and were all refused.
 */
export function memoryRateLimitStore(clock: Clock): FastifyRateLimitStoreCtor {
  const windows = new Map<string, { hits: number; resetAt: number }>();
  return rateLimitStore((key, windowMs) => {
    const now = clock.now();
    let window = windows.get(key);
    if (!window || window.resetAt <= now) window = { hits: 0, resetAt: now + windowMs };
    window.hits++;
    windows.delete(key);
    windows.set(key, window);
    if (windows.size > MEMORY_STORE_KEYS) {
      const oldest = windows.keys().next().value;
      if (oldest !== undefined) windows.delete(oldest);
    }
    return { current: window.hits, ttl: window.resetAt - now };
  });
}

/** An attempts-per-window limit per key (an account) shared by every process, like SlidingWindowLimiter. */
export class SharedWindowLimiter {
  constructor(
    private readonly db: pg.Pool,
    private readonly name: string,
    private readonly max: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {}

  /** Records one attempt; false when the key has already used up its window. */
  async take(key: string): Promise<boolean> {
    const { current } = await countHit(this.db, `${this.name}:${key}`, this.windowMs, dateOf(this.clock));
    return current <= this.max;
  }
}

/**
 * API-key nonces shared by every process (PostgreSQL, an unlogged table): `remember` is false when any process
 * has already seen the nonce. The nonces of one turn of the event loop are recorded in one statement, so a busy
 * api process pays one round trip per turn, not one per signed request. Nonces older than `keepMs` (twice the
 * accepted clock distance) can no longer be replayed and are swept now and then.
 */
export class SharedNonces {
  private pending: { kid: string; nonce: string; resolve(fresh: boolean): void; reject(err: Error): void }[] =
    [];
  private scheduled = false;
  private recorded = 0;

  constructor(
    private readonly db: pg.Pool,
    private readonly keepMs: number,
  ) {}

  /** Records a nonce of key `kid`; false when it was seen before (by any process, or earlier in this batch). */
  remember(kid: string, nonce: string): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.pending.push({ kid, nonce, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = [];
    // Only the first of equal nonces in a batch can be fresh; the statement gets each once.
    const first = new Map<string, (typeof batch)[number]>();
    for (const entry of batch) {
      const id = `${entry.kid}:${entry.nonce}`;
      if (!first.has(id)) first.set(id, entry);
    }
    const unique = [...first.values()];
    try {
      const fresh = await recordNonces(this.db, unique);
      for (const entry of batch) {
        const id = `${entry.kid}:${entry.nonce}`;
        entry.resolve(first.get(id) === entry && fresh.has(id));
      }
    } catch (err) {
      for (const entry of batch) entry.reject(err as Error);
    }
    this.recorded += unique.length;
    if (this.recorded >= SWEEP_EVERY) {
      this.recorded = 0;
      void sweepNonces(this.db, this.keepMs).catch(() => {});
    }
  }
}
