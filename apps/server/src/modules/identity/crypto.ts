import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import type pg from 'pg';
import { storeSecretOnce } from './secrets-repository.ts';

/** Keys derived from the server secret: one to hash one-time codes, one to encrypt secrets at rest. */
export interface ServerKeys {
  codePepper: Buffer;
  encryptionKey: Buffer;
  /** HMAC key that signs captcha challenges. */
  captchaKey: Buffer;
}

/**
 * Derives the server keys from SECRET_KEY, or (outside production) from a secret generated once and kept in
 * `app_secrets`, so a fresh development install works without configuration.
 */
export async function loadServerKeys(db: pg.Pool, secretKey: string | undefined): Promise<ServerKeys> {
  let secret = secretKey;
  if (!secret) {
    secret = await storeSecretOnce(db, 'secret_key', randomBytes(32).toString('base64url'));
  }
  const derive = (info: string) => Buffer.from(hkdfSync('sha256', secret, 'exchange', info, 32));
  return {
    codePepper: derive('one-time-codes'),
    encryptionKey: derive('encryption-at-rest'),
    captchaKey: derive('captcha'),
  };
}

/** Hex SHA-256; used for session ids so the database never holds a usable cookie. */
export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Keyed hash of a one-time code bound to its purpose and destination. */
export function hashCode(keys: ServerKeys, context: string, code: string): string {
  return createHmac('sha256', keys.codePepper).update(`${context}\n${code}`).digest('hex');
}

/** Constant-time comparison of two hex or ASCII strings. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A random URL-safe token with `bytes` of entropy. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** AES-256-GCM encryption for secrets at rest (TOTP seeds, API key secrets): "iv.ciphertext.tag" in base64url. */
export function encrypt(keys: ServerKeys, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keys.encryptionKey, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, data, cipher.getAuthTag()].map((b) => b.toString('base64url')).join('.');
}

/** Reverses {@link encrypt}; throws if the value was tampered with. */
export function decrypt(keys: ServerKeys, sealed: string): string {
  const [iv, data, tag] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !data || !tag) throw new Error('malformed sealed value');
  const decipher = createDecipheriv('aes-256-gcm', keys.encryptionKey, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
}

/** Bytes of the GCM nonce and tag around a sealed buffer. */
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM for binary data at rest (identity document images): one buffer, `iv | ciphertext | tag`. Native
 * code over the whole buffer, so a 10 MB image costs milliseconds, never per-byte work on the event loop.
 * `key` is the server's {@link ServerKeys.encryptionKey}, or a simulator's own key.
 */
export function sealBytes(key: Buffer, plain: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  return Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
}

/** Reverses {@link sealBytes}; throws if the value was tampered with or sealed with another key. */
export function openBytes(key: Buffer, sealed: Buffer): Buffer {
  if (sealed.length < IV_BYTES + TAG_BYTES) throw new Error('malformed sealed value');
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES));
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  return Buffer.concat([
    decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)),
    decipher.final(),
  ]);
}
