import type pg from 'pg';
import { prepareArchive } from '../backup/archive.ts';
import type { Config } from '../config.ts';
import { startEmbeddedPostgres } from './embedded.ts';
import { prepareEmbeddedRoles } from './embedded-roles.ts';
import { migrate, pendingMigrations } from './migrate.ts';
import { createPool } from './pool.ts';
import { seedDemoUsers, seedReferenceData } from './seed.ts';

interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
}

/** An open, migrated database and how to close it (and the embedded server, if we started one). */
export interface Database {
  /** The app's pool, as its restricted role (the embedded `exchange_app`, or the role of DATABASE_URL). */
  pool: pg.Pool;
  /** The URL of {@link pool}. */
  url: string;
  /**
   * For backups and restores only: the embedded server's superuser, or DATABASE_OWNER_URL (DATABASE_URL
   * without it).
   */
  adminUrl: string;
  embedded: boolean;
  close(): Promise<void>;
}

/**
 * Opens the configured database: the external one from DATABASE_URL, or the embedded server under DATA_DIR.
 * Migrates it as the owner of the schema and gives the app's role its grants (see {@link prepareSchema}), then
 * runs the idempotent seed as the app. With `attach`, an embedded server already run by the app is shared.
 * With BACKUP_DIR, the embedded server archives its WAL into `BACKUP_DIR/wal`.
 */
export async function openDatabase(
  config: Config,
  log: Logger,
  options: { attach?: boolean } = {},
): Promise<Database & { demoUsers: { id: string; email: string }[] }> {
  const embedded = config.databaseUrl
    ? undefined
    : await startEmbeddedPostgres(config.dataDir, config.embeddedPgPort, log, {
        ...options,
        ...(config.backup.dir ? { archiveTo: await prepareArchive(config.backup.dir) } : {}),
      });
  let pool: pg.Pool | undefined;
  try {
    const roles = embedded
      ? await prepareEmbeddedRoles(embedded.url, config.dataDir, log)
      : { appUrl: config.databaseUrl as string, ownerUrl: config.databaseOwnerUrl };
    pool = createPool(roles.appUrl);
    const applied = await prepareSchema(pool, roles.ownerUrl, log);
    if (applied.length > 0) log.info(`applied migrations: ${applied.join(', ')}`);
    await seedReferenceData(pool);
    const demoUsers = config.seedDemo ? await seedDemoUsers(pool, config.demoPassword) : [];
    const appPool = pool;
    return {
      pool: appPool,
      url: roles.appUrl,
      adminUrl: embedded?.url ?? roles.ownerUrl ?? roles.appUrl,
      embedded: embedded !== undefined,
      demoUsers,
      close: async () => {
        await appPool.end();
        await embedded?.stop();
      },
    };
  } catch (err) {
    await pool?.end().catch(() => {});
    await embedded?.stop().catch(() => {});
    throw err;
  }
}

/**
 * Brings the schema up to date and the app's role to its grants. With an owner's URL (the embedded owner, or
 * DATABASE_OWNER_URL), the owner migrates and grants the app's role what it needs. Without one, the role of
 * DATABASE_URL migrates if it owns the schema (as before: warned, since the app then runs with the owner's
 * rights), and a restricted role only checks that nothing is pending.
 * @returns the migrations applied.
 * @throws when migrations are pending and no role here may apply them.
 */
export async function prepareSchema(
  app: pg.Pool,
  ownerUrl: string | undefined,
  log: Logger,
): Promise<string[]> {
  const appRole = await currentRole(app);
  if (ownerUrl) {
    const owner = createPool(ownerUrl, 1);
    try {
      if ((await currentRole(owner)) === appRole) {
        log.warn(
          `DATABASE_OWNER_URL and DATABASE_URL are the same role (${appRole}): the app runs with the owner's rights`,
        );
        return await migrate(owner);
      }
      return await migrate(owner, { appRole });
    } finally {
      await owner.end();
    }
  }
  if (await ownsSchema(app)) {
    log.warn(
      `DATABASE_URL connects as the owner of the schema (${appRole}): the app runs with the owner's rights, so it could alter or drop tables and rewrite the staff trail. Set DATABASE_OWNER_URL for migrations and give DATABASE_URL a role of its own (README: External PostgreSQL).`,
    );
    return migrate(app);
  }
  const pending = await pendingMigrations(app).catch((err: { code?: string }) => {
    if (err.code !== '42501') throw err;
    throw new Error(
      `the role of DATABASE_URL (${appRole}) has no grants yet: start a process with DATABASE_OWNER_URL first`,
    );
  });
  if (pending.length > 0) {
    throw new Error(
      `migrations ${pending.join(', ')} are pending and the role of DATABASE_URL (${appRole}) may not apply them: set DATABASE_OWNER_URL to the owner's connection`,
    );
  }
  return [];
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
