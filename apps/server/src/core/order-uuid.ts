import { createHash } from 'node:crypto';

/**
 * The public UUID of an order, derived from its id (an RFC 9562 version-8 UUID from a hash), so the HTTP answer
 * needs no database round trip to learn it. It identifies; it authorises nothing (every lookup checks the owner).
 */
export function orderUuid(id: number): string {
  const h = createHash('sha256').update(`order:${id}`).digest('hex');
  const variant = ((Number.parseInt(h[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
