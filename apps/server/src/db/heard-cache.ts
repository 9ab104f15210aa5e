import type { ChangeFeed } from './change-feed.ts';

/** How long entries live: while changes are heard, and while they are not (0: nothing is kept). */
export interface HeardCachePolicy {
  /** While the feed is live: a safety bound, since every change is announced. */
  heardMs: number;
  /** Without a feed, or while it is down. */
  unheardMs: number;
  /** Entries kept at most (least recently used go first). */
  size: number;
}

interface Entry<V> {
  value: V;
  at: number;
  /** When it last moved to the end of the eviction order. */
  used: number;
}

/**
 * A hit moves its entry to the end of the eviction order at most this often. Moving it is a delete and a set on the
 * Map, and a warm key is hit by every request: within this interval the order is least recently *moved*, which for
 * eviction is as good.
 */
export const REORDER_EVERY_MS = 1_000;

interface Loading<V> {
  promise: Promise<V | undefined>;
  /** Set when the key was forgotten while it was being read: the answer is given but not kept. */
  stale: boolean;
}

/**
 * A bounded LRU of rows read from PostgreSQL that a {@link ChangeFeed} keeps true: callers `forget` the keys a
 * notification names, and everything goes when the feed listens again after a gap. A read of a key that was
 * forgotten while the read was in flight is answered but not kept, so an answer read before a change can never
 * outlive the notification of that change. Concurrent loads of one key share one read.
 */
export class HeardCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly loading = new Map<string, Loading<V>>();

  constructor(
    private readonly policy: HeardCachePolicy,
    private readonly feed?: ChangeFeed,
  ) {
    feed?.onReset(() => this.clear());
  }

  private get ttl(): number {
    return this.feed?.live ? this.policy.heardMs : this.policy.unheardMs;
  }

  /** The cached value of `key` if it is still fresh at `now`. */
  get(key: string, now: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (now - entry.at >= this.ttl) {
      this.entries.delete(key);
      return undefined;
    }
    // Most recently used last: the Map's order is the eviction order.
    if (now - entry.used >= REORDER_EVERY_MS) {
      entry.used = now;
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry.value;
  }

  /** The cached value of `key`, or what `read` returns (kept unless `key` was forgotten meanwhile). */
  load(key: string, now: number, read: () => Promise<V | undefined>): Promise<V | undefined> {
    const cached = this.get(key, now);
    if (cached !== undefined) return Promise.resolve(cached);
    const running = this.loading.get(key);
    if (running) return running.promise;
    const loading: Loading<V> = { promise: Promise.resolve(undefined), stale: false };
    loading.promise = read().then(
      (value) => {
        if (this.loading.get(key) === loading) this.loading.delete(key);
        if (value !== undefined && !loading.stale) this.set(key, value, now);
        return value;
      },
      (err: unknown) => {
        if (this.loading.get(key) === loading) this.loading.delete(key);
        throw err;
      },
    );
    this.loading.set(key, loading);
    return loading.promise;
  }

  /** Keeps `value` for `key` as read at `now`. */
  set(key: string, value: V, now: number): void {
    if (this.ttl <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, at: now, used: now });
    if (this.entries.size > this.policy.size) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  /** Drops `key` (a notification named it, or this process changed it); a read of it in flight is not kept. */
  forget(key: string): void {
    this.entries.delete(key);
    const loading = this.loading.get(key);
    if (loading) {
      loading.stale = true;
      this.loading.delete(key);
    }
  }

  /** Drops everything, reads in flight included. */
  clear(): void {
    this.entries.clear();
    for (const loading of this.loading.values()) loading.stale = true;
    this.loading.clear();
  }

  /** Entries held now. */
  get size(): number {
    return this.entries.size;
  }
}
