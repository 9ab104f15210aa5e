import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { chownForPostgres, postgresIds } from './tools.ts';

/** The WAL archive inside BACKUP_DIR. */
export const WAL_FOLDER = 'wal';

/**
 * A WAL segment is archived at the latest this long after its first commit, so a restore can reach any moment
 * up to about a minute before the disk was lost (an idle server archives nothing).
 */
export const ARCHIVE_TIMEOUT_SECONDS = 60;

/** A WAL segment file name: timeline, log and segment, 8 hex digits each. */
const SEGMENT = /^[0-9A-F]{24}/;

/** The checksum file of an archived WAL file: `<name>.sha256`, the hex SHA-256 of its content. */
export const CHECKSUM_SUFFIX = '.sha256';

/**
 * The shell command PostgreSQL runs for each finished WAL segment. Its checksum (SHA-256 of the server's own copy)
 * is written first, then the segment is copied under a temporary name, flushed to disk and renamed, so the
 * archive never holds half a segment nor a segment without its checksum: a restore can tell a damaged segment
 * from a good one. A segment already archived with the same content counts as done (after a crash PostgreSQL may
 * offer it again; its checksum is written if it was not); with other content it fails, and PostgreSQL keeps the
 * segment and retries rather than overwriting history.
 */
export function archiveCommand(archiveDir: string): string {
  const target = `'${archiveDir}/%f'`;
  const temp = `'${archiveDir}/%f.tmp'`;
  const sum = `'${archiveDir}/%f${CHECKSUM_SUFFIX}'`;
  const sumTemp = `'${archiveDir}/%f${CHECKSUM_SUFFIX}.tmp'`;
  const writeSum = `{ sha256sum '%p' | cut -c1-64 > ${sumTemp} && sync ${sumTemp} && mv ${sumTemp} ${sum}; }`;
  return `if [ -f ${target} ]; then cmp -s '%p' ${target} && { [ -f ${sum} ] || ${writeSum}; }; else ${writeSum} && cp '%p' ${temp} && sync ${temp} && mv ${temp} ${target}; fi`;
}

/** The embedded server's settings for continuous archiving into `archiveDir`. */
export function archiveSettings(archiveDir: string): string[] {
  return [
    '-c',
    'archive_mode=on',
    '-c',
    `archive_command=${archiveCommand(archiveDir)}`,
    '-c',
    `archive_timeout=${ARCHIVE_TIMEOUT_SECONDS}`,
  ];
}

/**
 * Creates the WAL archive folder of `backupDir`, writable by the server; returns its path. As root the server
 * runs as `postgres`, which must be able to pass through BACKUP_DIR (created `rwx--x--x`: it can list nothing).
 * @throws Error when the server could not write there, rather than failing every archive attempt later.
 */
export async function prepareArchive(backupDir: string): Promise<string> {
  if (!existsSync(backupDir)) await mkdir(backupDir, { recursive: true, mode: 0o711 });
  const archiveDir = path.join(backupDir, WAL_FOLDER);
  await mkdir(archiveDir, { recursive: true, mode: 0o700 });
  chownForPostgres(archiveDir);
  if (postgresIds()) {
    try {
      execFileSync('runuser', ['-u', 'postgres', '--', 'test', '-w', archiveDir], { stdio: 'ignore' });
    } catch {
      throw new Error(
        `the postgres user cannot write ${archiveDir}; make BACKUP_DIR and every parent folder searchable (chmod o+x)`,
      );
    }
  }
  return archiveDir;
}

/**
 * Deletes archived WAL that no kept backup needs: segments (and their `.backup` and `.partial` files) before
 * `oldestStartFile`, the first segment of the oldest kept base backup. Timeline history files stay.
 * @returns how many files were deleted.
 */
export async function pruneArchive(archiveDir: string, oldestStartFile: string): Promise<number> {
  const keepFrom = oldestStartFile.slice(8, 24);
  let deleted = 0;
  const names = await readdir(archiveDir).catch(() => [] as string[]);
  for (const name of names) {
    if (!SEGMENT.test(name) || name.includes('.history')) continue;
    if (name.slice(8, 24) < keepFrom) {
      await unlink(path.join(archiveDir, name)).catch(() => {});
      deleted++;
    }
  }
  return deleted;
}

/** The archived WAL files a point-in-time restore from a backup starting at `startFile` may need. */
export async function archivedSince(archiveDir: string, startFile: string): Promise<string[]> {
  const from = startFile.slice(8, 24);
  const names = await readdir(archiveDir).catch(() => [] as string[]);
  return names
    .filter((name) => !name.endsWith('.tmp') && !name.endsWith(CHECKSUM_SUFFIX))
    .filter((name) => name.endsWith('.history') || (SEGMENT.test(name) && name.slice(8, 24) >= from))
    .sort();
}

/** Whether the server archives its WAL (the app was started with BACKUP_DIR). */
export async function archivingOn(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query<{ mode: string }>(`select current_setting('archive_mode') as mode`);
  return rows[0]?.mode !== 'off';
}

/**
 * Whether continuous archiving works: `undefined` when it is off or healthy, otherwise a one-line warning
 * (a failing archive_command silently shortens how far a point-in-time restore can go).
 */
export async function archiveProblem(pool: pg.Pool): Promise<string | undefined> {
  const { rows } = await pool.query<{
    mode: string;
    failing: boolean;
    wal: string | null;
    at: string | null;
  }>(
    `select current_setting('archive_mode') as mode,
       coalesce(last_failed_time > coalesce(last_archived_time, '-infinity'), false) as failing,
       last_failed_wal as wal, last_failed_time::text as at
     from pg_stat_archiver`,
  );
  const row = rows[0];
  if (!row || row.mode === 'off' || !row.failing) return undefined;
  return `WAL archiving is failing (segment ${row.wal} at ${row.at}): point-in-time restores cannot go past it; check BACKUP_DIR/wal`;
}
