import { createHash } from 'node:crypto';

/** Recently derived UUIDs: an order's is needed for its row, its HTTP answer and its stream message. */
const recent = new Map<number, string>();
const RECENT_MAX = 8192;

/**
 * The public UUID of an order, derived from its id (an RFC 9562 version-8 UUID from a hash), so the HTTP answer
 * needs no database round trip to learn it. It identifies; it authorises nothing (every lookup checks the owner).
 */
export function orderUuid(id: number): string {
  const known = recent.get(id);
  if (known !== undefined) return known;
  const h = createHash('sha256').update(`order:${id}`).digest('hex');
  const variant = ((Number.parseInt(h[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  const uuid = `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  // Forget the oldest entry (Map keeps insertion order) so the cache stays small.
  if (recent.size >= RECENT_MAX) recent.delete(recent.keys().next().value as number);
  recent.set(id, uuid);
  return uuid;
}
