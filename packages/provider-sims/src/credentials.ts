import type pg from 'pg';

/**
 * A simulator's credentials, made once per database: `fresh` is stored under `name` in `app_secrets` unless a
 * process got there first, and what is stored is returned (every process of the deployment reads the same).
 */
export async function storedCredentials<T>(db: pg.Pool, name: string, fresh: T): Promise<T> {
  await db.query('insert into app_secrets (name, value) values ($1, $2) on conflict (name) do nothing', [
    name,
    JSON.stringify(fresh),
  ]);
  const row = (await db.query<{ value: string }>('select value from app_secrets where name = $1', [name]))
    .rows[0];
  if (!row) throw new Error(`no ${name} credentials stored`);
  return JSON.parse(row.value) as T;
}
