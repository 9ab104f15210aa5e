import type pg from 'pg';
import { type Clock, systemClock } from '../../clock.ts';
import type { ChangeFeed } from '../../db/change-feed.ts';
import { REORDER_EVERY_MS } from '../../db/heard-cache.ts';
import { randomToken, sha256 } from './crypto.ts';
import {
  insertSession,
  readLiveSession,
  revokeSession,
  revokeSessionsOf,
  type SessionLiveness,
  touchSession,
} from './sessions-repository.ts';

export type { SessionLiveness } from './sessions-repository.ts';

/** Name of the HttpOnly session cookie. */
export const SESSION_COOKIE = 'session';

/** A live session as the auth hook sees it. */
export interface ActiveSession {
  id: string;
  userId: string;
  csrfToken: string;
  userAgent: string | null;
}

interface CachedSession {
  session: ActiveSession;
  cachedAt: number;
  lastSeen: number;
  /** When it last moved to the end of the eviction order (see REORDER_EVERY_MS). */
  used: number;
  /** The absolute end of the session (epoch ms). */
  expiresAt: number;
}

/**
 * Idle timeout (sliding), absolute lifetime, how long a lookup is cached in memory while the change feed is heard
 * (`heardCacheMs`) and while it is not or there is none (`cacheMs`; 0: never), and how many live sessions and
 * unknown tokens the cache holds at most.
 */
export interface SessionPolicy {
  idleMinutes: number;
  maxHours: number;
  cacheMs: number;
  heardCacheMs: number;
  cacheSize: number;
  unknownCacheSize: number;
}

export const DEFAULT_SESSION_POLICY: SessionPolicy = {
  idleMinutes: 60,
  maxHours: 24,
  cacheMs: 1_000,
  heardCacheMs: 60_000,
  cacheSize: 50_000,
  unknownCacheSize: 10_000,
};

/** A session's `last_seen_at` is written at most this often (the idle timeout moves in steps this long). */
const TOUCH_EVERY_MS = 60_000;

/** What every cookie token looks like: {@link randomToken} of 32 bytes. Anything else is unknown at once. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** What the cache holds and how often it spared a database read; for tests and metrics. */
export interface SessionCacheStats {
  live: number;
  unknown: number;
  /** Lookups that went to the database. */
  reads: number;
}

/**
 * Server-side sessions in PostgreSQL. The cookie carries a 256-bit random token; the table keeps its SHA-256.
 *
 * Lookups are cached in memory in two bounded LRU maps: live sessions, and a small separate one of unknown
 * tokens, so that a client sending random cookies only ever evicts other unknown tokens, never a real user's
 * session. Looking a token up only reads; the idle expiry is written for live sessions only, at most once a minute
 * each. Revocations clear the cache at once in this process, and in every other one when the change feed
 * (migration 0030) announces them; while the feed is not heard, entries live only `cacheMs`.
 */
export class SessionStore {
  private readonly live = new Map<string, CachedSession>();
  private readonly unknown = new Map<string, number>();
  /** Cached session ids per user, so revoking a user's sessions does not scan the cache. */
  private readonly byUser = new Map<string, Set<string>>();
  private reads = 0;
  /** Cookie tokens of cached live sessions and their ids (see idOf). */
  private readonly ids = new Map<string, string>();
  /** Raised by every drop: a lookup that read before a drop does not keep what it read. */
  private generation = 0;

  constructor(
    private readonly db: pg.Pool,
    private readonly policy: SessionPolicy = DEFAULT_SESSION_POLICY,
    private readonly feed?: ChangeFeed,
    /** The app's clock (clock.ts): expiry and the idle timeout are measured on it. */
    private readonly clock: Clock = systemClock,
  ) {
    feed?.subscribe((payload) => {
      if (payload.startsWith('s:')) this.drop(payload.slice(2));
    });
    feed?.onReset(() => {
      this.generation++;
      this.live.clear();
      this.byUser.clear();
    });
  }

  /** How long a lookup is trusted now. */
  private get cacheMs(): number {
    return this.feed?.live ? this.policy.heardCacheMs : this.policy.cacheMs;
  }

  /** Starts a session; returns the cookie token and the CSRF token. */
  async create(
    userId: string,
    ip: string,
    userAgent: string | null,
  ): Promise<{ token: string; csrfToken: string }> {
    const token = randomToken(32);
    const csrfToken = randomToken(32);
    await insertSession(
      this.db,
      { id: sha256(token), userId, csrfToken, ip, userAgent },
      this.policy.maxHours,
      new Date(this.clock.now()),
    );
    return { token, csrfToken };
  }

  /** The live session for a cookie token, extending its idle expiry; null when unknown, idle, expired or revoked. */
  async resolve(token: string): Promise<ActiveSession | null> {
    if (!TOKEN_SHAPE.test(token)) return null;
    const id = this.idOf(token);
    const now = this.clock.now();
    const cached = this.live.get(id);
    if (cached && now >= cached.expiresAt) {
      this.drop(id);
      return null;
    }
    // Idle here may be active on another process: only the database can tell.
    const idle = cached && now - cached.lastSeen > this.policy.idleMinutes * 60_000;
    if (cached && !idle && now - cached.cachedAt < this.cacheMs) {
      // Most recently used last: the Map's order is the eviction order.
      if (now - cached.used >= REORDER_EVERY_MS) {
        cached.used = now;
        this.live.delete(id);
        this.live.set(id, cached);
      }
      if (now - cached.lastSeen > TOUCH_EVERY_MS) await this.touch(id, cached, now);
      return cached.session;
    }
    const unknownAt = this.unknown.get(id);
    if (unknownAt !== undefined && now - unknownAt < this.cacheMs) return null;
    this.reads++;
    const generation = this.generation;
    const row = (await readLiveSession(this.db, id, this.policy.idleMinutes, new Date(now))).rows[0];
    if (!row) {
      this.evict(id);
      this.rememberUnknown(id, now);
      return null;
    }
    const session = { id, userId: String(row.user_id), csrfToken: row.csrf_token, userAgent: row.user_agent };
    const entry = {
      session,
      cachedAt: now,
      used: now,
      lastSeen: now - Number(row.idle_ms),
      expiresAt: now + Number(row.left_ms),
    };
    if (now - entry.lastSeen > TOUCH_EVERY_MS) await this.touch(id, entry, now);
    this.unknown.delete(id);
    if (generation === this.generation) this.remember(entry);
    return session;
  }

  /**
   * The session id of a cookie token: its SHA-256, remembered for the tokens of live cached sessions (a pure
   * function, so never stale; hashing cost a twentieth of a warm request). Unknown tokens are hashed each time,
   * so random cookies cannot fill this.
   */
  private idOf(token: string): string {
    const known = this.ids.get(token);
    if (known !== undefined) return known;
    const id = sha256(token);
    if (this.live.has(id)) {
      if (this.ids.size >= this.policy.cacheSize) this.ids.clear();
      this.ids.set(token, id);
    }
    return id;
  }

  /** What the cache holds now. */
  stats(): SessionCacheStats {
    return { live: this.live.size, unknown: this.unknown.size, reads: this.reads };
  }

  private remember(entry: CachedSession): void {
    if (this.cacheMs <= 0) return;
    const { id, userId } = entry.session;
    this.evict(id);
    this.live.set(id, entry);
    let ids = this.byUser.get(userId);
    if (!ids) {
      ids = new Set();
      this.byUser.set(userId, ids);
    }
    ids.add(id);
    if (this.live.size > this.policy.cacheSize) {
      const oldest = this.live.keys().next().value;
      if (oldest !== undefined) this.evict(oldest);
    }
  }

  private rememberUnknown(id: string, now: number): void {
    if (this.cacheMs <= 0 || this.policy.unknownCacheSize <= 0) return;
    this.unknown.delete(id);
    this.unknown.set(id, now);
    if (this.unknown.size > this.policy.unknownCacheSize) {
      const oldest = this.unknown.keys().next().value;
      if (oldest !== undefined) this.unknown.delete(oldest);
    }
  }

  /** Takes a session out of the cache (the next lookup reads the database). */
  private drop(id: string): void {
    this.generation++;
    this.evict(id);
  }

  /** Takes a session out of the cache without marking a change (an eviction or a replacement). */
  private evict(id: string): void {
    const entry = this.live.get(id);
    if (!entry) return;
    this.live.delete(id);
    const ids = this.byUser.get(entry.session.userId);
    ids?.delete(id);
    if (ids?.size === 0) this.byUser.delete(entry.session.userId);
  }

  private async touch(id: string, cached: CachedSession, now: number): Promise<void> {
    cached.lastSeen = now;
    await touchSession(this.db, id, new Date(now));
  }

  /** Ends one session (logout). */
  async revoke(sessionId: string): Promise<void> {
    this.drop(sessionId);
    await revokeSession(this.db, sessionId, new Date(this.clock.now()));
  }

  /**
   * Ends every session of a user, optionally keeping one (password change keeps none), and marks why
   * (`sessions.end_reason`: `password` unless told).
   */
  async revokeAllForUser(
    userId: string,
    exceptSessionId?: string,
    reason: 'password' | 'staff' | 'closure' = 'password',
  ): Promise<void> {
    for (const id of [...(this.byUser.get(userId) ?? [])]) if (id !== exceptSessionId) this.drop(id);
    await revokeSessionsOf(this.db, userId, exceptSessionId ?? null, reason, new Date(this.clock.now()));
  }

  /**
   * Forgets sessions that a statement of someone else's (the Devices service, in its own transaction) ended: this
   * process at once, after the commit; the others hear the change feed (migration 0030) as for any revocation.
   */
  forget(sessionIds: readonly string[]): void {
    for (const id of sessionIds) this.drop(id);
  }

  /** The idle timeout in minutes: a session unused this long is over. */
  get idleMinutes(): number {
    return this.policy.idleMinutes;
  }

  /** What makes a session live now (the idle timeout, and now on the app's clock), for the session queries. */
  liveness(): SessionLiveness {
    return { idleMinutes: this.policy.idleMinutes, now: new Date(this.clock.now()) };
  }
}
