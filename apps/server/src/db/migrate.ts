import { readdir, readFile } from 'node:fs/promises';
import type pg from 'pg';
import { MIGRATIONS_DIR } from '../paths.ts';
import { LOCKS, withLock } from './locks.ts';
import { grantAppPrivileges } from './privileges.ts';

/**
 * The migrations written in TypeScript, imported by name so that the built bundle carries them (the SQL ones are
 * read from {@link MIGRATIONS_DIR}).
 */
const CODE_MIGRATIONS: Record<string, () => Promise<CodeMigration>> = {
  '0034_phones_e164.ts': () => import('./migrations/0034_phones_e164.ts'),
};

/**
 * A migration written in TypeScript (`migrations/NNNN_name.ts`), for a change SQL cannot make alone (phone numbers
 * normalised by libphonenumber-js): `up` runs in the migration's transaction, on the owner's connection.
 */
export interface CodeMigration {
  up(client: pg.PoolClient): Promise<void>;
}

/**
 * Applies every `migrations/NNNN_name.sql` (or `.ts`, a {@link CodeMigration}) not yet recorded in
 * `schema_migrations`, in order, each in its own transaction, under an advisory lock so that several processes starting at once migrate only once. Runs as the
 * owner of the schema; with `appRole`, then grants that role what the app needs ({@link grantAppPrivileges}),
 * still under the lock.
 * @returns the names of the migrations applied by this call.
 */
export async function migrate(
  pool: pg.Pool,
  /** `before`: apply only the migrations whose name sorts before it (a database of an earlier version, for tests). */
  options: { appRole?: string; before?: string } = {},
): Promise<string[]> {
  const applied: string[] = [];
  await withLock(pool, LOCKS.migration, async (client) => {
    await client.query(
      'create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())',
    );
    const done = new Set((await client.query('select name from schema_migrations')).rows.map((r) => r.name));
    for (const file of await migrationFiles()) {
      if (done.has(file)) continue;
      if (options.before !== undefined && file >= options.before) break;
      await client.query('begin');
      try {
        if (file.endsWith('.ts')) {
          const load = CODE_MIGRATIONS[file];
          if (!load) throw new Error(`no loader for the code migration ${file} (add it to CODE_MIGRATIONS)`);
          const migration = await load();
          await migration.up(client);
        } else await client.query(await readFile(new URL(file, MIGRATIONS_DIR), 'utf8'));
        await client.query('insert into schema_migrations (name) values ($1)', [file]);
        await client.query('commit');
        applied.push(file);
      } catch (err) {
        await client.query('rollback');
        throw new Error(`migration ${file} failed: ${(err as Error).message}`);
      }
    }
    if (options.appRole) await grantAppPrivileges(client, options.appRole);
  });
  return applied;
}

/**
 * The migrations not applied yet, as a role that cannot apply them sees it (it may read `schema_migrations`).
 * @returns their names, oldest first; every one when the schema was never migrated.
 */
export async function pendingMigrations(pool: pg.Pool): Promise<string[]> {
  const found = await pool.query<{ table: string | null }>(
    `select to_regclass('public.schema_migrations')::text as table`,
  );
  const done = found.rows[0]?.table
    ? new Set((await pool.query('select name from schema_migrations')).rows.map((r) => r.name))
    : new Set<string>();
  return (await migrationFiles()).filter((file) => !done.has(file));
}

async function migrationFiles(): Promise<string[]> {
  return (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{4}_.*\.(sql|ts)$/.test(f)).sort();
}
