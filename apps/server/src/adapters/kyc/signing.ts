import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Sumsub's request signing and webhook digests, shared by the real adapter (which signs and verifies) and the
 * built-in simulator (which verifies and signs): one implementation of the protocol, two sides.
 */

/** The bytes Sumsub signs: timestamp (seconds) + METHOD + path with query + body, concatenated. */
export function signingString(ts: number | string, method: string, pathWithQuery: string, body = ''): string {
  return `${ts}${method.toUpperCase()}${pathWithQuery}${body}`;
}

/** `X-App-Access-Sig`: lowercase hex HMAC-SHA256(secret, ts + METHOD + path-with-query + body). */
export function requestSignature(
  secret: string,
  ts: number | string,
  method: string,
  pathWithQuery: string,
  body: string | Buffer = '',
): string {
  const hmac = createHmac('sha256', secret).update(signingString(ts, method, pathWithQuery));
  if (body.length > 0) hmac.update(body);
  return hmac.digest('hex');
}

/** The three signing headers for a request made now (or at `nowMs`). */
export function signedHeaders(
  appToken: string,
  secret: string,
  method: string,
  pathWithQuery: string,
  body: string | Buffer = '',
  nowMs = Date.now(),
): Record<string, string> {
  const ts = Math.floor(nowMs / 1000);
  return {
    'X-App-Token': appToken,
    'X-App-Access-Ts': String(ts),
    'X-App-Access-Sig': requestSignature(secret, ts, method, pathWithQuery, body),
  };
}

/** How far a request's timestamp may be from the receiver's clock (Sumsub: one minute). */
export const SIGNATURE_WINDOW_SECONDS = 60;

/**
 * The part of {@link checkRequestSignature} that needs no body: the three headers, the app token and the
 * timestamp window. A receiver runs it before reading a body, so an unsigned request costs no read or HMAC.
 */
export function checkRequestHeaders(
  expected: { appToken: string },
  headers: Record<string, unknown>,
  nowMs = Date.now(),
): 'missing_headers' | 'unknown_token' | 'expired' | null {
  const token = headers['x-app-token'];
  const ts = headers['x-app-access-ts'];
  const sig = headers['x-app-access-sig'];
  if (typeof token !== 'string' || typeof ts !== 'string' || typeof sig !== 'string')
    return 'missing_headers';
  if (!safeEqual(token, expected.appToken)) return 'unknown_token';
  if (!/^\d{1,12}$/.test(ts) || Math.abs(Number(ts) - nowMs / 1000) > SIGNATURE_WINDOW_SECONDS)
    return 'expired';
  return null;
}

/** Checks a signed request on the receiving side; returns why it is refused, or null when it is good. */
export function checkRequestSignature(
  expected: { appToken: string; secretKey: string },
  request: { method: string; pathWithQuery: string; body: Buffer | string; headers: Record<string, unknown> },
  nowMs = Date.now(),
): 'missing_headers' | 'unknown_token' | 'expired' | 'invalid_signature' | null {
  const refusal = checkRequestHeaders(expected, request.headers, nowMs);
  if (refusal) return refusal;
  const ts = String(request.headers['x-app-access-ts']);
  const sig = String(request.headers['x-app-access-sig']);
  const want = requestSignature(expected.secretKey, ts, request.method, request.pathWithQuery, request.body);
  return safeEqual(sig.toLowerCase(), want) ? null : 'invalid_signature';
}

/** Webhook digest algorithms, as Sumsub names them in `x-payload-digest-alg`. */
export const DIGEST_ALGORITHMS = {
  HMAC_SHA1_HEX: 'sha1',
  HMAC_SHA256_HEX: 'sha256',
  HMAC_SHA512_HEX: 'sha512',
} as const;
export type DigestAlgorithm = keyof typeof DIGEST_ALGORITHMS;

export function isDigestAlgorithm(value: unknown): value is DigestAlgorithm {
  return typeof value === 'string' && Object.hasOwn(DIGEST_ALGORITHMS, value);
}

/** `x-payload-digest`: lowercase hex HMAC of the raw body with the webhook secret. */
export function payloadDigest(algorithm: DigestAlgorithm, secret: string, rawBody: Buffer | string): string {
  return createHmac(DIGEST_ALGORITHMS[algorithm], secret).update(rawBody).digest('hex');
}

/**
 * Verifies a webhook's `x-payload-digest` over the raw body, before anything reads the body. A missing
 * `x-payload-digest-alg` means SHA-1 (Sumsub's original default); an unknown algorithm is refused.
 */
export function verifyPayloadDigest(
  secret: string,
  rawBody: Buffer,
  headers: Record<string, unknown>,
): boolean {
  const digest = headers['x-payload-digest'];
  const alg = headers['x-payload-digest-alg'] ?? 'HMAC_SHA1_HEX';
  if (typeof digest !== 'string' || !isDigestAlgorithm(alg)) return false;
  return safeEqual(digest.toLowerCase(), payloadDigest(alg, secret, rawBody));
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
