import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The bank's notification signature, shared by the exchange's webhook (which verifies) and the built-in simulator
 * (which signs): `X-Bank-Timestamp` (Unix seconds) and `X-Bank-Signature: v1=<hex>`, the HMAC-SHA256 of
 * `<timestamp>.<raw body>` with the webhook secret. The timestamp is signed so that a captured notification
 * cannot be replayed days later (a replay within the window credits nothing twice anyway: crediting is idempotent
 * on the bank's transaction id).
 */

/** How far a notification's timestamp may be from our clock. */
export const BANK_SIGNATURE_TOLERANCE_SECONDS = 300;

/** `v1=<hex>` over `<timestamp>.<body>`. */
export function bankSignature(secret: string, timestamp: number, rawBody: Buffer | string): string {
  const mac = createHmac('sha256', secret);
  mac.update(`${timestamp}.`);
  mac.update(rawBody);
  return `v1=${mac.digest('hex')}`;
}

/** The headers the bank sends a notification with, signed now. */
export function bankWebhookHeaders(
  secret: string,
  rawBody: string,
  now = Date.now(),
): Record<string, string> {
  const timestamp = Math.floor(now / 1000);
  return {
    'content-type': 'application/json',
    'x-bank-timestamp': String(timestamp),
    'x-bank-signature': bankSignature(secret, timestamp, rawBody),
  };
}

/**
 * True when the notification carries a fresh timestamp and a signature over exactly these bytes, compared in
 * constant time.
 */
export function verifyBankWebhook(
  secret: string,
  rawBody: Buffer,
  headers: Record<string, unknown>,
  now = Date.now(),
): boolean {
  const stamp = headers['x-bank-timestamp'];
  const signature = headers['x-bank-signature'];
  if (typeof stamp !== 'string' || !/^\d{1,12}$/.test(stamp) || typeof signature !== 'string') return false;
  const timestamp = Number(stamp);
  if (Math.abs(now / 1000 - timestamp) > BANK_SIGNATURE_TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(bankSignature(secret, timestamp, rawBody));
  const given = Buffer.from(signature.toLowerCase());
  return given.length === expected.length && timingSafeEqual(given, expected);
}
