import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Marqeta's webhook protection, shared by our endpoint (which verifies) and the built-in simulator (which signs):
 * HTTP Basic credentials configured on the webhook, and `X-Marqeta-Signature`, the lowercase hex HMAC-SHA256 of
 * the raw body with the webhook's secret. And the Basic credentials our calls to the issuer carry.
 */

/** What a webhook must carry to be believed. */
export interface WebhookCredentials {
  username: string;
  password: string;
  secret: string;
}

/** `Authorization: Basic base64(username:password)`. */
export function basicAuth(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

/** `X-Marqeta-Signature` of a raw body. */
export function webhookSignature(secret: string, rawBody: Buffer | string): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex');
}

/** The headers the issuer sends a webhook with. */
export function webhookHeaders(credentials: WebhookCredentials, rawBody: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    authorization: basicAuth(credentials.username, credentials.password),
    'x-marqeta-signature': webhookSignature(credentials.secret, rawBody),
  };
}

/**
 * True when a webhook has the right Basic credentials and a signature over exactly these bytes. Both are
 * compared in constant time and both are always checked, before anything reads the body.
 */
export function verifyWebhook(
  credentials: WebhookCredentials,
  rawBody: Buffer,
  headers: Record<string, unknown>,
): boolean {
  const auth = headers.authorization;
  const signature = headers['x-marqeta-signature'];
  const authOk = safeEqual(
    typeof auth === 'string' ? auth : '',
    basicAuth(credentials.username, credentials.password),
  );
  const signatureOk = safeEqual(
    typeof signature === 'string' ? signature.toLowerCase() : '',
    webhookSignature(credentials.secret, rawBody),
  );
  return authOk && signatureOk;
}

/** Checks `Authorization: Basic` against the expected credentials in constant time. */
export function checkBasicAuth(header: unknown, username: string, password: string): boolean {
  return safeEqual(typeof header === 'string' ? header : '', basicAuth(username, password));
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  // Compare against itself when the lengths differ, so the time taken does not depend on where they differ.
  return x.length === y.length ? timingSafeEqual(x, y) : timingSafeEqual(y, y) && false;
}
