import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  sign,
  verify,
} from 'node:crypto';
import type pg from 'pg';
import { type Clock, systemClock } from '../../clock.ts';
import { IpRuleSet } from '../../net/ip-rules.ts';
import { decrypt, encrypt, type ServerKeys } from './crypto.ts';
import { userOfToken } from './jwt-repository.ts';
import { storeSecretOnce } from './secrets-repository.ts';
import type { SessionLiveness } from './sessions.ts';
import type { UserRecord } from './users-repository.ts';

/**
 * Barong's session JWTs, as this server issues them (`GET /api/v2/auth/...`, see auth-routes.ts) and the Ranger
 * gateway accepts them (`Authorization: Bearer` on the upgrade, or a `jwt` message). As Barong: RS256 over
 * `{iat, exp, sub: "session", iss: "barong", aud: ["peatio", "barong"], jti, uid, email, role, level, state}`.
 * Unlike Barong (an hour, valid whatever happens to the session) a token lives five minutes and names what it
 * came from, a session (`sid`) or an API key (`kid`): it is refused once that session ended or that key was
 * switched off, deleted or lost its two-factor.
 */

/** How long a token lives. */
export const JWT_LIFETIME_SECONDS = 300;
/** Clock skew allowed between servers when checking `iat`. */
const LEEWAY_SECONDS = 30;
/** Where the private key is kept (PKCS#8 PEM, sealed with the server's encryption key). */
const KEY_NAME = 'jwt_rs256_private_key';

/** What a token was issued for. */
export type JwtBinding = { sid: string } | { kid: string };

/** The claims of a token this server issued. */
export interface SessionClaims {
  iat: number;
  exp: number;
  sub: 'session';
  iss: 'barong';
  aud: string[];
  jti: string;
  uid: string;
  email: string;
  role: string;
  level: number;
  state: string;
  sid?: string;
  kid?: string;
}

/** Why a token was refused (for the log; clients get one code, `jwt.decode_and_verify`). */
export class JwtRefused extends Error {}

const base64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');
const json = (part: string): unknown => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

/** Issues and verifies the session JWTs with one RS256 key pair, made once and shared through the database. */
export class JwtIssuer {
  private keyPair: Promise<{ privateKey: KeyObject; publicKey: KeyObject; kid: string }> | undefined;

  constructor(
    private readonly db: pg.Pool,
    private readonly keys: ServerKeys,
    /** The app's clock: a token's issue time and its expiry check are measured on it. */
    private readonly clock: Clock = systemClock,
  ) {}

  /**
   * The key pair: read from `app_secrets`, or made (RSA 2048) and stored there by the first process that needs
   * it; a process that loses the race reads the winner's.
   */
  private load() {
    this.keyPair ??= (async () => {
      const made = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const pem = made.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      const stored = await storeSecretOnce(this.db, KEY_NAME, encrypt(this.keys, pem));
      const privateKey = createPrivateKey(decrypt(this.keys, stored));
      const publicKey = createPublicKey(privateKey);
      const der = publicKey.export({ type: 'spki', format: 'der' });
      return {
        privateKey,
        publicKey,
        kid: createHash('sha256').update(der).digest('base64url').slice(0, 16),
      };
    })();
    this.keyPair.catch(() => {
      this.keyPair = undefined;
    });
    return this.keyPair;
  }

  /** A token for `user`, bound to a session or an API key. */
  async issue(
    user: UserRecord,
    binding: JwtBinding,
    now = this.clock.now(),
  ): Promise<{ token: string; exp: number }> {
    const { privateKey, kid } = await this.load();
    const iat = Math.floor(now / 1000);
    const claims: SessionClaims = {
      iat,
      exp: iat + JWT_LIFETIME_SECONDS,
      sub: 'session',
      iss: 'barong',
      aud: ['peatio', 'barong'],
      jti: randomBytes(10).toString('hex'),
      uid: user.uid,
      email: user.email,
      role: user.role,
      level: user.level,
      state: user.state,
      ...binding,
    };
    const head = `${base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid }))}.${base64url(JSON.stringify(claims))}`;
    const signature = sign('RSA-SHA256', Buffer.from(head), privateKey);
    return { token: `${head}.${base64url(signature)}`, exp: claims.exp };
  }

  /**
   * The claims of a token this server signed, unexpired, for the session audience. Only RS256 is taken: a token
   * claiming another algorithm (`none`, HS256 with the public key as secret) is refused before any check.
   * @throws JwtRefused
   */
  async verify(token: string, now = this.clock.now()): Promise<SessionClaims> {
    const parts = token.split('.');
    if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]*$/.test(p)))
      throw new JwtRefused('malformed');
    const [head = '', body = '', signature = ''] = parts;
    let header: { alg?: unknown };
    let claims: Partial<SessionClaims>;
    try {
      header = json(head) as { alg?: unknown };
      claims = json(body) as Partial<SessionClaims>;
    } catch {
      throw new JwtRefused('malformed');
    }
    if (header.alg !== 'RS256') throw new JwtRefused('algorithm');
    const { publicKey } = await this.load();
    if (!verify('RSA-SHA256', Buffer.from(`${head}.${body}`), publicKey, Buffer.from(signature, 'base64url')))
      throw new JwtRefused('signature');
    const seconds = Math.floor(now / 1000);
    if (typeof claims.exp !== 'number' || claims.exp <= seconds) throw new JwtRefused('expired');
    if (typeof claims.iat !== 'number' || claims.iat > seconds + LEEWAY_SECONDS) throw new JwtRefused('iat');
    if (claims.iss !== 'barong' || claims.sub !== 'session' || !claims.aud?.includes('peatio'))
      throw new JwtRefused('claims');
    if (typeof claims.uid !== 'string' || (!claims.sid && !claims.kid)) throw new JwtRefused('claims');
    return claims as SessionClaims;
  }

  /** The public key as a JSON Web Key Set (for other services that check these tokens, e.g. an own Rango). */
  async jwks() {
    const { publicKey, kid } = await this.load();
    const jwk = publicKey.export({ format: 'jwk' });
    return { keys: [{ ...jwk, kid, alg: 'RS256', use: 'sig' }] };
  }
}

/**
 * The active user a verified token names, while what it was issued for still stands: its session live (not
 * ended, not idle past `idleMinutes`, not expired) or its API key active with two-factor on. A token of an API
 * key that is restricted to addresses (`allowed_ips`) is taken only from one of them, like the key's own signed
 * requests: a token fetched from an allowed address is of no use elsewhere. Undefined otherwise.
 */
export async function userOfClaims(
  db: pg.Pool,
  claims: SessionClaims,
  /** The idle timeout and now (the app's clock): see SessionStore.liveness. */
  { idleMinutes, now }: SessionLiveness,
  /** The address the token is presented from (`request.ip`, see TRUST_PROXY). */
  ip: string,
): Promise<UserRecord | undefined> {
  const row = await userOfToken(db, claims.uid, claims.sid ?? null, claims.kid ?? null, idleMinutes, now);
  const found = row.rows[0];
  if (!found) return undefined;
  const { key_allowed_ips: allowed, ...user } = found;
  if (claims.kid && allowed && allowed.length > 0 && !new IpRuleSet(allowed).allows(ip)) return undefined;
  return user as UserRecord;
}
