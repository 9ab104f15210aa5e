import { hash } from 'node:crypto';

/** Recently derived UUIDs: an order's is needed for its row, its HTTP answer and its stream message. */
const recent = new Map<number, string>();
const RECENT_MAX = 8192;
/**
 * The ids in `recent`, in a ring: the slot written next holds the oldest, which is forgotten. (Taking the oldest as
 * the Map's first key cost more with every call: V8 keeps deleted entries in place until it rehashes, and the
 * Map's iterator steps over all of them.)
 */
const ring: (number | undefined)[] = new Array(RECENT_MAX);
let oldest = 0;

/**
 * The public UUID of an order, derived from its id (an RFC 9562 version-8 UUID from a hash), so the HTTP answer
 * needs no database round trip to learn it. It identifies; it authorises nothing (every lookup checks the owner).
 */
export function orderUuid(id: number): string {
  const known = recent.get(id);
  if (known !== undefined) return known;
  const h = hash('sha256', `order:${id}`, 'hex');
  const variant = ((Number.parseInt(h[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  const uuid = `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  const forgotten = ring[oldest];
  if (forgotten !== undefined) recent.delete(forgotten);
  ring[oldest] = id;
  oldest = (oldest + 1) % RECENT_MAX;
  recent.set(id, uuid);
  return uuid;
}
