import type pg from 'pg';

/**
 * The abuse guards several api processes share in PostgreSQL: rate-limit windows (`rate_limit_hits`) and the API-key
 * nonces already used (`api_key_nonces`, an unlogged table).
 */

/**
 * Counts one hit of `key` in a fixed window of `windowMs` started at the key's first hit, and returns the hits so far
 * and the window's remaining milliseconds. `now` is the app's clock, not the database's, so a test moves the window by
 * moving the clock.
 */
export async function countHit(
  db: pg.Pool,
  key: string,
  windowMs: number,
  now: Date,
): Promise<{ current: number; ttl: number }> {
  const row = (
    await db.query<{ hits: number; ttl: string }>(
      `insert into rate_limit_hits (key, hits, reset_at) values ($1, 1, $3::timestamptz + make_interval(secs => $2))
       on conflict (key) do update set
         hits = case when rate_limit_hits.reset_at <= $3::timestamptz then 1 else rate_limit_hits.hits + 1 end,
         reset_at = case when rate_limit_hits.reset_at <= $3::timestamptz then excluded.reset_at
                         else rate_limit_hits.reset_at end
       returning hits, greatest(0, extract(epoch from reset_at - $3::timestamptz) * 1000)::bigint as ttl`,
      [key, windowMs / 1000, now],
    )
  ).rows[0]!;
  return { current: Number(row.hits), ttl: Number(row.ttl) };
}

/** Forgets the windows that ended before `now`. */
export async function sweepRateLimitHits(db: pg.Pool, now: Date): Promise<void> {
  await db.query('delete from rate_limit_hits where reset_at < $1', [now]);
}

/**
 * Records the nonces (each `kid`/`nonce` pair once) and returns those no process had recorded before, as
 * `kid:nonce`.
 */
export async function recordNonces(
  db: pg.Pool,
  nonces: readonly { kid: string; nonce: string }[],
): Promise<Set<string>> {
  const inserted = await db.query<{ kid: string; nonce: string }>(
    `insert into api_key_nonces (kid, nonce) select * from unnest($1::text[], $2::bigint[])
     on conflict do nothing returning kid, nonce::text`,
    [nonces.map((e) => e.kid), nonces.map((e) => e.nonce)],
  );
  return new Set(inserted.rows.map((r) => `${r.kid}:${r.nonce}`));
}

/** Forgets the nonces recorded more than `keepMs` ago (they can no longer be replayed). */
export async function sweepNonces(db: pg.Pool, keepMs: number): Promise<void> {
  await db.query('delete from api_key_nonces where seen_at < now() - make_interval(secs => $1)', [
    keepMs / 1000,
  ]);
}
