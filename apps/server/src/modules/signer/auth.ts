import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * How a caller proves itself to the signer: `x-signer-timestamp` (ms since the epoch) and `x-signer-signature`,
 * the hex HMAC-SHA256 under the shared token of `timestamp.METHOD.path.body`. A request older or newer than
 * {@link MAX_SKEW_MS} is refused, so a captured request cannot be replayed later.
 */
export const TIMESTAMP_HEADER = 'x-signer-timestamp';
export const SIGNATURE_HEADER = 'x-signer-signature';
export const MAX_SKEW_MS = 30_000;

/** The signature of one request. */
export function requestSignature(
  token: string,
  timestamp: string,
  method: string,
  urlPath: string,
  body: string,
) {
  return createHmac('sha256', token).update(`${timestamp}.${method}.${urlPath}.${body}`).digest('hex');
}

/** The headers a client sends with `body`. */
export function signedHeaders(
  token: string,
  method: string,
  urlPath: string,
  body: string,
  now = Date.now(),
) {
  const timestamp = String(now);
  return {
    [TIMESTAMP_HEADER]: timestamp,
    [SIGNATURE_HEADER]: requestSignature(token, timestamp, method, urlPath, body),
  };
}

/** Whether a request carries a valid, fresh signature (compared in constant time). */
export function verifyRequest(
  token: string,
  headers: Record<string, string | string[] | undefined>,
  method: string,
  urlPath: string,
  body: string,
  now = Date.now(),
): boolean {
  const timestamp = headers[TIMESTAMP_HEADER];
  const signature = headers[SIGNATURE_HEADER];
  if (typeof timestamp !== 'string' || typeof signature !== 'string' || !/^\d{1,16}$/.test(timestamp))
    return false;
  if (Math.abs(now - Number(timestamp)) > MAX_SKEW_MS) return false;
  const expected = Buffer.from(requestSignature(token, timestamp, method, urlPath, body), 'hex');
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
