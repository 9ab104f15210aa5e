import type pg from 'pg';

/** Records where this process serves a development node, for the other roles and the command line. */
export async function recordEndpoint(db: pg.Pool, key: string, url: string): Promise<void> {
  await db.query(
    `insert into chain_endpoints (blockchain_key, url) values ($1, $2)
     on conflict (blockchain_key) do update set url = excluded.url, updated_at = now()`,
    [key, url],
  );
}

/** Where a running app serves a network's development node, if it recorded one. */
export async function recordedEndpoint(db: pg.Pool, key: string): Promise<string | undefined> {
  return (await db.query('select url from chain_endpoints where blockchain_key = $1', [key])).rows[0]?.url;
}
