import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header Twilio signs its webhooks (a message's status callbacks among them) with. */
export const TWILIO_SIGNATURE_HEADER = 'x-twilio-signature';

/**
 * Twilio's request signature (its "Webhooks security" guide): the full URL Twilio requested (scheme, host, path,
 * query string as given), then each POST parameter sorted by name, its name and value appended with no separator;
 * HMAC-SHA1 of that string keyed with the account's auth token, in base64. A name given more than once is appended
 * once per value, its values in sorted order.
 */
export function twilioSignature(authToken: string, url: string, params: Iterable<[string, string]>): string {
  const sorted = [...params].sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
  const hmac = createHmac('sha1', authToken).update(url, 'utf8');
  for (const [name, value] of sorted) hmac.update(`${name}${value}`, 'utf8');
  return hmac.digest('base64');
}

/**
 * Whether `header` is Twilio's signature of this request (see {@link twilioSignature}), compared in constant time;
 * false when it is absent.
 */
export function verifyTwilioSignature(
  authToken: string,
  url: string,
  params: Iterable<[string, string]>,
  header: string | string[] | undefined,
): boolean {
  if (typeof header !== 'string' || header.length === 0) return false;
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The POST parameters of a form-encoded body, in their order, a repeated name once per value. */
export function formParams(body: string): [string, string][] {
  return [...new URLSearchParams(body)];
}
