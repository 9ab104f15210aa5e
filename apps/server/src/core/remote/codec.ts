/**
 * The wire form of commands, results and batches between processes: JSON, with every bigint (all money in the
 * core is bigint) as `{"$n":"<decimal>"}`, so nothing passes through a float.
 */
const BIGINT = '$n';

/** Encodes a value for NATS. */
export function encode(value: unknown): Uint8Array {
  return Buffer.from(
    JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? { [BIGINT]: v.toString() } : v)),
  );
}

/** Decodes what {@link encode} produced; the caller names the type it expects. */
export function decode<T>(data: Uint8Array): T {
  return JSON.parse(Buffer.from(data).toString('utf8'), (_key, v) => {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      const keys = Object.keys(v);
      if (keys.length === 1 && keys[0] === BIGINT && typeof v[BIGINT] === 'string') return BigInt(v[BIGINT]);
    }
    return v;
  }) as T;
}
