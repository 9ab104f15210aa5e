/**
 * The wire form of commands, results and batches between processes: JSON, with every bigint (all money in the
 * core is bigint) as `{"$n":"<decimal>"}`, so nothing passes through a float.
 */
const BIGINT = '$n';

/** Encodes a value for NATS. */
export function encode(value: unknown): Uint8Array {
  return Buffer.from(stringifyTagged(value));
}

/** JSON text of `value` with every bigint as `{"$n":"<decimal>"}` (read back with {@link reviveBigints}). */
export function stringifyTagged(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? { [BIGINT]: v.toString() } : v));
}

/** Decodes what {@link encode} produced; the caller names the type it expects. */
export function decode<T>(data: Uint8Array): T {
  // A walk after the parse: a reviver is called for every value and cost several times as much.
  return reviveBigints(JSON.parse(Buffer.from(data).toString('utf8'))) as T;
}

/** Turns every `{"$n":"<decimal>"}` in a parsed value back into a bigint, in place where it can. */
export function reviveBigints(value: unknown): unknown {
  return revive(value);
}

function revive(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      if (item !== null && typeof item === 'object') value[i] = revive(item);
    }
    return value;
  }
  const record = value as Record<string, unknown>;
  let keys = 0;
  for (const key of Object.keys(record)) {
    keys++;
    const item = record[key];
    // Only a bigint replaces what was there (never assigned to a key such as `__proto__` otherwise).
    if (item !== null && typeof item === 'object') {
      const revived = revive(item);
      if (revived !== item) record[key] = revived;
    }
  }
  const n = record[BIGINT];
  if (keys === 1 && typeof n === 'string') return BigInt(n);
  return record;
}
