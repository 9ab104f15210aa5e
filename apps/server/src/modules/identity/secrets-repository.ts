import type pg from 'pg';

/**
 * Stores `value` under `name` in `app_secrets` unless a process got there first, and returns what is stored: every
 * process of the deployment reads the same secret (the server secret of a development install, the JWT key).
 */
export async function storeSecretOnce(db: pg.Pool, name: string, value: string): Promise<string> {
  await db.query('insert into app_secrets (name, value) values ($1, $2) on conflict (name) do nothing', [
    name,
    value,
  ]);
  return (await db.query<{ value: string }>('select value from app_secrets where name = $1', [name])).rows[0]!
    .value;
}
