import type pg from 'pg';
import { prepareArchive } from '../backup/archive.ts';
import type { Config } from '../config.ts';
import { startEmbeddedPostgres } from './embedded.ts';
import { migrate } from './migrate.ts';
import { createPool } from './pool.ts';
import { seedDemoUsers, seedReferenceData } from './seed.ts';

interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
}

/** An open, migrated database and how to close it (and the embedded server, if we started one). */
export interface Database {
  pool: pg.Pool;
  url: string;
  embedded: boolean;
  close(): Promise<void>;
}

/**
 * Opens the configured database: the external one from DATABASE_URL, or the embedded server under DATA_DIR.
 * Runs migrations and the idempotent seed. With `attach`, an embedded server already run by the app is shared.
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
  const url = config.databaseUrl ?? embedded!.url;
  const pool = createPool(url);
  try {
    const applied = await migrate(pool);
    if (applied.length > 0) log.info(`applied migrations: ${applied.join(', ')}`);
    await seedReferenceData(pool);
    const demoUsers = config.seedDemo ? await seedDemoUsers(pool, config.demoPassword) : [];
    return {
      pool,
      url,
      embedded: embedded !== undefined,
      demoUsers,
      close: async () => {
        await pool.end();
        await embedded?.stop();
      },
    };
  } catch (err) {
    await pool.end().catch(() => {});
    await embedded?.stop().catch(() => {});
    throw err;
  }
}
