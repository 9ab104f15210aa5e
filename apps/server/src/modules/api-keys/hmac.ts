import { createHmac } from 'node:crypto';
import { ERRORS } from '@exchange/shared';
import type pg from 'pg';
import { AppError } from '../../http/errors.ts';
import { rememberSharedNonce } from '../../http/shared-limits.ts';
import { decrypt, type ServerKeys, safeEqual } from '../identity/crypto.ts';
import { findUserById, type UserRecord } from '../identity/users-repository.ts';
import { findKey } from './repository.ts';

/** The nonce (milliseconds) must be within this distance of server time. */
export const NONCE_WINDOW_MS = 5_000;

/**
 * How long a key and its user, once read, are trusted without reading them again. Changes made through this
 * process (key state, 2FA) take effect at once (`invalidate`, `forgetUser`); changes made elsewhere (an operator
 * command, another process) within this bound. It keeps the database off the path of signed requests.
 */
export const AUTH_CACHE_MS = 5_000;

interface CachedKey {
  userId: string;
  secret: string;
  state: string;
  loadedAt: number;
}

/** `hex(HMAC-SHA256(secret, nonce + kid))`, the signature programs send in X-Auth-Signature. */
export function signature(secret: string, nonce: string, kid: string): string {
  return createHmac('sha256', secret)
    .update(nonce + kid)
    .digest('hex');
}

/**
 * Authenticates programs by API key (DESIGN.md §6): X-Auth-Apikey (kid), X-Auth-Nonce (ms), X-Auth-Signature.
 * Beyond Barong, a nonce already seen for a key is refused, so a captured request cannot be replayed.
 */
export class ApiKeyAuthenticator {
  private readonly keys = new Map<string, CachedKey>();
  private readonly users = new Map<string, { user: UserRecord; loadedAt: number }>();
  private readonly seen = new Map<string, Map<string, number>>();

  constructor(
    private readonly db: pg.Pool,
    private readonly serverKeys: ServerKeys,
    private readonly now: () => number = Date.now,
    /** Several api processes: nonces are recorded in PostgreSQL, so a replay to another process is refused too. */
    private readonly sharedNonces = false,
  ) {}

  /** Forgets a key after it changed, so the next request reads it again. */
  invalidate(kid: string): void {
    this.keys.delete(kid);
  }

  /** Forgets a user after a change that bears on API-key access (2FA), so the next request reads it again. */
  forgetUser(userId: string): void {
    this.users.delete(userId);
  }

  async authenticate(headers: Record<string, string | string[] | undefined>): Promise<UserRecord> {
    const kid = headers['x-auth-apikey'];
    const nonce = headers['x-auth-nonce'];
    const sig = headers['x-auth-signature'];
    if (
      typeof kid !== 'string' ||
      typeof nonce !== 'string' ||
      typeof sig !== 'string' ||
      !/^\d{1,16}$/.test(nonce)
    ) {
      throw new AppError(401, [ERRORS.invalidApikeyHeaders]);
    }
    const now = this.now();
    if (Math.abs(now - Number(nonce)) > NONCE_WINDOW_MS) throw new AppError(401, [ERRORS.nonceExpired]);
    const key = await this.load(kid, now);
    if (!key) throw new AppError(401, [ERRORS.unexistentApikey]);
    if (!safeEqual(signature(key.secret, nonce, kid), sig.toLowerCase()))
      throw new AppError(401, [ERRORS.invalidSignature]);
    if (key.state !== 'active') throw new AppError(401, [ERRORS.apikeyNotActive]);
    const fresh = this.sharedNonces
      ? await rememberSharedNonce(this.db, kid, nonce, 2 * NONCE_WINDOW_MS)
      : this.remember(kid, nonce, now);
    if (!fresh) throw new AppError(401, [ERRORS.nonceExpired]);
    const user = await this.user(key.userId, now);
    if (!user) throw new AppError(401, [ERRORS.unexistentApikey]);
    if (!user.otp) throw new AppError(401, [ERRORS.disabled2fa]);
    if (user.state !== 'active') throw new AppError(401, [ERRORS.userNotActive]);
    return user;
  }

  private async load(kid: string, now: number): Promise<CachedKey | undefined> {
    const cached = this.keys.get(kid);
    if (cached && now - cached.loadedAt < AUTH_CACHE_MS) return cached;
    const row = await findKey(this.db, kid);
    if (!row) return undefined;
    const key = {
      userId: String(row.user_id),
      secret: decrypt(this.serverKeys, row.secret_enc),
      state: row.state,
      loadedAt: now,
    };
    this.keys.set(kid, key);
    return key;
  }

  private async user(id: string, now: number): Promise<UserRecord | undefined> {
    const cached = this.users.get(id);
    if (cached && now - cached.loadedAt < AUTH_CACHE_MS) return cached.user;
    const user = await findUserById(this.db, id);
    if (user) this.users.set(id, { user, loadedAt: now });
    else this.users.delete(id);
    return user ?? undefined;
  }

  /** Records a nonce; false if it was already used inside the window. Old nonces are dropped as time moves. */
  private remember(kid: string, nonce: string, now: number): boolean {
    let nonces = this.seen.get(kid);
    if (!nonces) {
      nonces = new Map();
      this.seen.set(kid, nonces);
    }
    if (nonces.has(nonce)) return false;
    nonces.set(nonce, now);
    // Oldest first (a Map keeps insertion order): drop nonces out of the window until the first recent one, so
    // each request does a bounded amount of work however many nonces a busy key holds.
    for (const [n, at] of nonces) {
      if (now - at <= 2 * NONCE_WINDOW_MS) break;
      nonces.delete(n);
    }
    return true;
  }
}
