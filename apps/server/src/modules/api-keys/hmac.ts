import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { ERRORS } from '@exchange/shared';
import type pg from 'pg';
import type { ChangeFeed } from '../../db/change-feed.ts';
import { HeardCache, type HeardCachePolicy } from '../../db/heard-cache.ts';
import { AppError } from '../../http/errors.ts';
import { SharedNonces } from '../../http/shared-limits.ts';
import { IpRuleSet } from '../../net/ip-rules.ts';
import { decrypt, type ServerKeys, safeEqual } from '../identity/crypto.ts';
import { UserDirectory } from '../identity/user-directory.ts';
import { recordActivity, type UserRecord } from '../identity/users-repository.ts';
import { NonceLog } from './nonce-log.ts';
import { findKey } from './repository.ts';

/** The nonce (milliseconds) must be within this distance of the time the request arrived. */
export const NONCE_WINDOW_MS = 5_000;

/**
 * How long a request may wait inside the server (for the database, a busy loop) before its nonce is checked; past
 * it the request is refused with 503 `server.busy`, not with an authentication error.
 */
export const NONCE_CHECK_DEADLINE_MS = NONCE_WINDOW_MS;

/**
 * How long a used nonce is remembered. A replay is checked at most NONCE_WINDOW_MS + NONCE_CHECK_DEADLINE_MS after
 * its nonce, and the first use was recorded at least NONCE_WINDOW_MS before the nonce: so 15 s.
 */
export const NONCE_KEEP_MS = 2 * NONCE_WINDOW_MS + NONCE_CHECK_DEADLINE_MS;

/**
 * How long a key, once read, is trusted without reading it again. Changes made through this process take effect
 * at once (`invalidate`), changes made elsewhere (an operator command, another process) when the change feed
 * announces them, and within `unheardMs` while it is not heard. It keeps the database off the path of signed
 * requests.
 */
export const KEY_CACHE: HeardCachePolicy = { heardMs: 60_000, unheardMs: 1_000, size: 100_000 };

/**
 * A request refused for its address is written to the owner's security log at most this often per key and
 * process: a flood from a wrong address must not fill the table (it is refused every time all the same).
 */
export const IP_REFUSAL_LOG_MS = 60_000;

interface CachedKey {
  userId: string;
  /** The secret as a key object, prepared once (HMAC with a string secret prepares it on every request). */
  secret: KeyObject;
  state: string;
  /** The key's allowed IPs, ready to match (an empty set: any address); read with the key, so never per request. */
  allowedIps: IpRuleSet;
}

/** `hex(HMAC-SHA256(secret, nonce + kid))`, the signature programs send in X-Auth-Signature. */
export function signature(secret: string | KeyObject, nonce: string, kid: string): string {
  return createHmac('sha256', secret)
    .update(nonce + kid)
    .digest('hex');
}

/**
 * Authenticates programs by API key (docs/platform.md#wire-contract): X-Auth-Apikey (kid), X-Auth-Nonce (ms), X-Auth-Signature.
 * Beyond Barong, a nonce already seen for a key is refused, so a captured request cannot be replayed.
 */
export class ApiKeyAuthenticator {
  private readonly keys: HeardCache<CachedKey>;
  private readonly seen = new Map<string, NonceLog>();
  private readonly sharedNonces: SharedNonces | undefined;
  /** When each key's last address refusal was logged (see IP_REFUSAL_LOG_MS). */
  private readonly refusalsLogged = new Map<string, number>();

  constructor(
    private readonly db: pg.Pool,
    private readonly serverKeys: ServerKeys,
    /** The app's clock (clock.ts): the nonce window and the check deadline are measured on it. */
    private readonly now: () => number,
    /** Several api processes: nonces are recorded in PostgreSQL, so a replay to another process is refused too. */
    shared = false,
    /** Where the key's user is read (shared with the session hook). */
    private readonly users: UserDirectory = new UserDirectory(db),
    feed?: ChangeFeed,
  ) {
    this.keys = new HeardCache(KEY_CACHE, feed);
    this.sharedNonces = shared ? new SharedNonces(db, NONCE_KEEP_MS) : undefined;
    feed?.subscribe((payload) => {
      if (payload.startsWith('k:')) this.keys.forget(payload.slice(2));
    });
  }

  /** Forgets a key after it changed, so the next request reads it again. */
  invalidate(kid: string): void {
    this.keys.forget(kid);
  }

  /** Forgets a user after a change that bears on API-key access (2FA), so the next request reads it again. */
  forgetUser(userId: string): void {
    this.users.forget(userId);
  }

  /**
   * The user of a signed request. `receivedAt` is when the request reached this process: the nonce is measured
   * against it, so a request that waited here (for the database, say) is not taken for an old one; one that waited
   * past NONCE_CHECK_DEADLINE_MS is refused with 503 `server.busy`, which a client may retry.
   */
  async authenticate(
    headers: Record<string, string | string[] | undefined>,
    receivedAt: number | undefined,
    /** The client's address (`request.ip`: the socket's peer, or what a trusted proxy named; see TRUST_PROXY). */
    ip: string,
  ): Promise<UserRecord> {
    receivedAt ??= this.now();
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
    if (Math.abs(receivedAt - Number(nonce)) > NONCE_WINDOW_MS)
      throw new AppError(401, [ERRORS.nonceExpired]);
    this.withinDeadline(receivedAt);
    const key = await this.load(kid, this.now());
    if (!key) throw new AppError(401, [ERRORS.unexistentApikey]);
    if (!safeEqual(signature(key.secret, nonce, kid), sig.toLowerCase()))
      throw new AppError(401, [ERRORS.invalidSignature]);
    if (key.state !== 'active') throw new AppError(401, [ERRORS.apikeyNotActive]);
    // The key's lookup may have waited: past the deadline the nonce would outlive its record (NONCE_KEEP_MS).
    const now = this.withinDeadline(receivedAt);
    const fresh = this.sharedNonces
      ? await this.sharedNonces.remember(kid, nonce)
      : this.remember(kid, nonce, now);
    if (!fresh) throw new AppError(401, [ERRORS.nonceExpired]);
    // Checked only for a correctly signed, fresh request: an unsigned one learns nothing about the key's list.
    if (!key.allowedIps.allows(ip)) {
      await this.logIpRefusal(kid, key.userId, ip, headers['user-agent']);
      throw new AppError(403, [ERRORS.ipNotAllowed]);
    }
    const user = await this.users.user(key.userId);
    if (!user) throw new AppError(401, [ERRORS.unexistentApikey]);
    if (!user.otp) throw new AppError(401, [ERRORS.disabled2fa]);
    if (user.state !== 'active') throw new AppError(401, [ERRORS.userNotActive]);
    return user;
  }

  /** The time now; throws 503 `server.busy` when the request has waited past NONCE_CHECK_DEADLINE_MS. */
  private withinDeadline(receivedAt: number): number {
    const now = this.now();
    if (now - receivedAt > NONCE_CHECK_DEADLINE_MS) throw new AppError(503, [ERRORS.busy]);
    return now;
  }

  private load(kid: string, now: number): Promise<CachedKey | undefined> {
    return this.keys.load(kid, now, async () => {
      const row = await findKey(this.db, kid);
      if (!row) return undefined;
      return {
        userId: String(row.user_id),
        secret: createSecretKey(Buffer.from(decrypt(this.serverKeys, row.secret_enc), 'utf8')),
        state: row.state,
        allowedIps: new IpRuleSet(row.allowed_ips ?? []),
      };
    });
  }

  /**
   * Writes an address refusal to the owner's security log (`ip_whitelist`, `api_key.ip_not_allowed`) unless one
   * for this key was written in the last IP_REFUSAL_LOG_MS by this process. A failed write never turns the
   * refusal into something else.
   */
  private async logIpRefusal(
    kid: string,
    userId: string,
    ip: string,
    agent: string | string[] | undefined,
  ): Promise<void> {
    const now = this.now();
    const last = this.refusalsLogged.get(kid);
    if (last !== undefined && now - last < IP_REFUSAL_LOG_MS) return;
    // Bounded: a process that saw refusals for very many keys starts its count again.
    if (this.refusalsLogged.size >= 10_000) this.refusalsLogged.clear();
    this.refusalsLogged.set(kid, now);
    await recordActivity(this.db, {
      userId,
      action: 'api_key.ip_not_allowed',
      result: 'failed',
      topic: 'ip_whitelist',
      ip,
      userAgent: typeof agent === 'string' ? agent.slice(0, 500) : null,
      data: { kid },
    }).catch(() => {});
  }

  /** Records a nonce; false if it was already used (a nonce is kept NONCE_KEEP_MS). */
  private remember(kid: string, nonce: string, now: number): boolean {
    let nonces = this.seen.get(kid);
    if (!nonces) {
      nonces = new NonceLog(NONCE_KEEP_MS);
      this.seen.set(kid, nonces);
    }
    return nonces.add(nonce, now);
  }
}
