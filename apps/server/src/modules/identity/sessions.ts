import type pg from 'pg';
import { randomToken, sha256 } from './crypto.ts';

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
  session: ActiveSession | null;
  cachedAt: number;
  lastSeen: number;
}

/** Idle timeout (sliding), absolute lifetime, and how long a lookup is cached in memory. */
export interface SessionPolicy {
  idleMinutes: number;
  maxHours: number;
  cacheMs: number;
}

export const DEFAULT_SESSION_POLICY: SessionPolicy = { idleMinutes: 60, maxHours: 24, cacheMs: 5_000 };

/**
 * Server-side sessions in PostgreSQL. The cookie carries a 256-bit random token; the table keeps its SHA-256.
 * Lookups are cached briefly in memory; revocations clear the cache at once in this process.
 */
export class SessionStore {
  private readonly cache = new Map<string, CachedSession>();

  constructor(
    private readonly db: pg.Pool,
    private readonly policy: SessionPolicy = DEFAULT_SESSION_POLICY,
  ) {}

  /** Starts a session; returns the cookie token and the CSRF token. */
  async create(
    userId: string,
    ip: string,
    userAgent: string | null,
  ): Promise<{ token: string; csrfToken: string }> {
    const token = randomToken(32);
    const csrfToken = randomToken(32);
    await this.db.query(
      `insert into sessions (id, user_id, csrf_token, ip, user_agent, expires_at)
       values ($1, $2, $3, $4, $5, now() + make_interval(hours => $6))`,
      [sha256(token), userId, csrfToken, ip, userAgent, this.policy.maxHours],
    );
    return { token, csrfToken };
  }

  /** The live session for a cookie token, extending its idle expiry; null when unknown, idle, expired or revoked. */
  async resolve(token: string): Promise<ActiveSession | null> {
    const id = sha256(token);
    const now = Date.now();
    const cached = this.cache.get(id);
    if (cached && now - cached.cachedAt < this.policy.cacheMs) {
      if (cached.session && now - cached.lastSeen > 60_000) await this.touch(id, cached, now);
      return cached.session;
    }
    const row = (
      await this.db.query(
        `update sessions set last_seen_at = now()
         where id = $1 and revoked_at is null and expires_at > now()
           and last_seen_at > now() - make_interval(mins => $2)
         returning user_id, csrf_token, user_agent`,
        [id, this.policy.idleMinutes],
      )
    ).rows[0];
    const session = row
      ? { id, userId: String(row.user_id), csrfToken: row.csrf_token, userAgent: row.user_agent }
      : null;
    this.cache.set(id, { session, cachedAt: now, lastSeen: now });
    if (this.cache.size > 50_000) this.cache.clear();
    return session;
  }

  private async touch(id: string, cached: CachedSession, now: number): Promise<void> {
    cached.lastSeen = now;
    await this.db.query('update sessions set last_seen_at = now() where id = $1 and revoked_at is null', [
      id,
    ]);
  }

  /** Ends one session (logout). */
  async revoke(sessionId: string): Promise<void> {
    this.cache.delete(sessionId);
    await this.db.query('update sessions set revoked_at = now() where id = $1 and revoked_at is null', [
      sessionId,
    ]);
  }

  /** Ends every session of a user, optionally keeping one (password change keeps none). */
  async revokeAllForUser(userId: string, exceptSessionId?: string): Promise<void> {
    for (const [id, entry] of this.cache)
      if (entry.session?.userId === userId && id !== exceptSessionId) this.cache.delete(id);
    await this.db.query(
      'update sessions set revoked_at = now() where user_id = $1 and revoked_at is null and id is distinct from $2',
      [userId, exceptSessionId ?? null],
    );
  }
}
