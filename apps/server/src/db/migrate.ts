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
 * A folder of migrations with the table that records which were applied: the exchange's own
 * ({@link SERVER_MIGRATIONS}), or a set beside it, such as the provider simulators' (packages/provider-sims), applied
 * by the same runner as the same owner.
 */
export interface MigrationSet {
  /** How its migrations are named in the log (`<name>/<file>`); none for the exchange's own. */
  name?: string;
  /** Its `NNNN_name.sql` files (a `.ts` one needs a loader in `code`). */
  dir: URL;
  /** The table that records them: `schema_migrations`, or one ending in `_schema_migrations` (the app may read it). */
  table: string;
  /** The loaders of its migrations written in TypeScript, by file name. */
  code?: Record<string, () => Promise<CodeMigration>>;
}

/** The exchange's own migrations (`src/db/migrations`), recorded in `schema_migrations`. */
export const SERVER_MIGRATIONS: MigrationSet = {
  dir: MIGRATIONS_DIR,
  table: 'schema_migrations',
  code: CODE_MIGRATIONS,
};

/**
 * Applies every `migrations/NNNN_name.sql` (or `.ts`, a {@link CodeMigration}) not yet recorded in
 * `schema_migrations`, in order, each in its own transaction, under an advisory lock so that several processes
 * starting at once migrate only once. Runs as the owner of the schema; with `appRole`, then grants that role what
 * the app needs ({@link grantAppPrivileges}), still under the lock.
 * @returns the names of the migrations applied by this call.
 */
export async function migrate(
  pool: pg.Pool,
  /** `before`: apply only the migrations whose name sorts before it (a database of an earlier version, for tests). */
  options: { appRole?: string; before?: string } = {},
): Promise<string[]> {
  return migrateSet(pool, SERVER_MIGRATIONS, options);
}

/** {@link migrate} for any {@link MigrationSet}: the same runner, lock and grants, its own folder and table. */
export async function migrateSet(
  pool: pg.Pool,
  set: MigrationSet,
  options: { appRole?: string; before?: string } = {},
): Promise<string[]> {
  const applied: string[] = [];
  const table = trackingTable(set);
  await withLock(pool, LOCKS.migration, async (client) => {
    await client.query(
      `create table if not exists ${table} (name text primary key, applied_at timestamptz not null default now())`,
    );
    const done = new Set(
      (await client.query<{ name: string }>(`select name from ${table}`)).rows.map((r) => r.name),
    );
    for (const file of await migrationFiles(set)) {
      if (done.has(file)) continue;
      if (options.before !== undefined && file >= options.before) break;
      await client.query('begin');
      try {
        if (file.endsWith('.ts')) {
          const load = set.code?.[file];
          if (!load) throw new Error(`no loader for the code migration ${file} (add it to CODE_MIGRATIONS)`);
          const migration = await load();
          await migration.up(client);
        } else await client.query(await readFile(new URL(file, set.dir), 'utf8'));
        await client.query(`insert into ${table} (name) values ($1)`, [file]);
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
export async function pendingMigrations(
  pool: pg.Pool,
  set: MigrationSet = SERVER_MIGRATIONS,
): Promise<string[]> {
  const table = trackingTable(set);
  const found = await pool.query<{ table: string | null }>(`select to_regclass($1)::text as table`, [
    `public.${table}`,
  ]);
  const done = found.rows[0]?.table
    ? new Set((await pool.query<{ name: string }>(`select name from ${table}`)).rows.map((r) => r.name))
    : new Set<string>();
  return (await migrationFiles(set)).filter((file) => !done.has(file));
}

/** The set's table, checked: a plain name that the grants know as a migrations table. */
function trackingTable(set: MigrationSet): string {
  if (!/^([a-z][a-z0-9_]*_)?schema_migrations$/.test(set.table))
    throw new Error(`a migrations table is named schema_migrations or *_schema_migrations, not ${set.table}`);
  return set.table;
}

async function migrationFiles(set: MigrationSet): Promise<string[]> {
  return (await readdir(set.dir)).filter((f) => /^\d{4}_.*\.(sql|ts)$/.test(f)).sort();
}
