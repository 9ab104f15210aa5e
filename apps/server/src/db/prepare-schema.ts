import type pg from 'pg';
import { type MigrationSet, migrateSet, pendingMigrations } from './migrate.ts';
import { createPool } from './pool.ts';

interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
}

/**
 * Brings the schema up to date and the app's role to its grants. With an owner's URL (the embedded owner, or
 * DATABASE_OWNER_URL), the owner migrates and grants the app's role what it needs. Without one, the role of
 * DATABASE_URL migrates if it owns the schema (as before: warned, since the app then runs with the owner's
 * rights), and a restricted role only checks that nothing is pending. The `sets` are applied in turn, each under
 * the migration lock and followed by the grants (the exchange's `SERVER_MIGRATIONS` first; the provider
 * simulators' beside it, when mounted, or alone for a standalone simulator).
 * @returns the migrations applied (a set beside the exchange's named `<set>/<file>`).
 * @throws when migrations are pending and no role here may apply them.
 */
export async function prepareSchema(
  app: pg.Pool,
  ownerUrl: string | undefined,
  log: Logger,
  sets: MigrationSet[],
): Promise<string[]> {
  const appRole = await currentRole(app);
  if (ownerUrl) {
    const owner = createPool(ownerUrl, 1);
    try {
      if ((await currentRole(owner)) === appRole) {
        log.warn(
          `DATABASE_OWNER_URL and DATABASE_URL are the same role (${appRole}): the app runs with the owner's rights`,
        );
        return await migrateAll(owner, sets);
      }
      return await migrateAll(owner, sets, appRole);
    } finally {
      await owner.end();
    }
  }
  if (await ownsSchema(app)) {
    log.warn(
      `DATABASE_URL connects as the owner of the schema (${appRole}): the app runs with the owner's rights, so it could alter or drop tables and rewrite the staff trail. Set DATABASE_OWNER_URL for migrations and give DATABASE_URL a role of its own (README: External PostgreSQL).`,
    );
    return migrateAll(app, sets);
  }
  const pending: string[] = [];
  for (const set of sets) {
    const names = await pendingMigrations(app, set).catch((err: { code?: string }) => {
      if (err.code !== '42501') throw err;
      throw new Error(
        `the role of DATABASE_URL (${appRole}) has no grants yet: start a process with DATABASE_OWNER_URL first`,
      );
    });
    pending.push(...names.map((name) => labelled(set, name)));
  }
  if (pending.length > 0) {
    throw new Error(
      `migrations ${pending.join(', ')} are pending and the role of DATABASE_URL (${appRole}) may not apply them: set DATABASE_OWNER_URL to the owner's connection`,
    );
  }
  return [];
}

/** Applies each set in turn (the exchange's first), granting `appRole` after each. */
async function migrateAll(pool: pg.Pool, sets: MigrationSet[], appRole?: string): Promise<string[]> {
  const applied: string[] = [];
  for (const set of sets)
    applied.push(...(await migrateSet(pool, set, { appRole })).map((name) => labelled(set, name)));
  return applied;
}

/** A migration's name as logged: the exchange's by its file name, another set's as `<set>/<file>`. */
function labelled(set: MigrationSet, name: string): string {
  return set.name ? `${set.name}/${name}` : name;
}

async function currentRole(pool: pg.Pool): Promise<string> {
  return (await pool.query<{ role: string }>('select current_user as role')).rows[0]?.role ?? '';
}

/** The role owns the migrated schema (or is a superuser), or may create it in a database never migrated. */
async function ownsSchema(pool: pg.Pool): Promise<boolean> {
  const found = await pool.query<{ owner: boolean }>(
    `select coalesce((select pg_has_role(current_user, c.relowner, 'usage') from pg_class c
       where c.oid = to_regclass('public.schema_migrations')), has_schema_privilege('public', 'create')) as owner`,
  );
  return found.rows[0]?.owner === true;
}
