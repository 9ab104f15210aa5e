import type pg from 'pg';
import { prepareArchive } from '../backup/archive.ts';
import type { Config } from '../config.ts';
import { startEmbeddedPostgres } from './embedded.ts';
import { prepareEmbeddedRoles } from './embedded-roles.ts';
import { type MigrationSet, SERVER_MIGRATIONS } from './migrate.ts';
import { createPool } from './pool.ts';
import { prepareSchema } from './prepare-schema.ts';
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
 * `schemas`: the migration sets applied after the exchange's own (the provider simulators', when the composition
 * root mounts any: compose-schemas.ts `simulatorSchemas`); a start with the real providers passes none.
 * With BACKUP_DIR, the embedded server archives its WAL into `BACKUP_DIR/wal`.
 */
export async function openDatabase(
  config: Config,
  log: Logger,
  options: { attach?: boolean; schemas?: MigrationSet[] } = {},
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
    const applied = await prepareSchema(pool, roles.ownerUrl, log, [
      SERVER_MIGRATIONS,
      ...(options.schemas ?? []),
    ]);
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
