import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { createPool } from '../db/pool.ts';
import { archiveProblem, archivingOn } from './archive.ts';
import {
  archiveSummary,
  formatList,
  humanSize,
  listBackups,
  pruneBackups,
  resolveBackup,
} from './catalogue.ts';
import { BackupError } from './manifest.ts';
import { restoreBackup } from './restore.ts';
import { takeBackup } from './take.ts';

export const BACKUP_USAGE = `  backup [dir]              back up the running database into dir (default BACKUP_DIR), checksummed and audited
  backup list [dir]         the backups in dir (default BACKUP_DIR): time, kind, size, audit at that moment
  backup verify [dir]       check every file of every backup and of the WAL archive against its checksum
  restore <backup> [--to "2026-11-23 20:00:00+00" | --to latest] [--accept-loss-after "<time>"]
                            restore a backup (a folder, a name in BACKUP_DIR, or latest) into a fresh DATA_DIR
                            (or, for a pg_dump backup, into the empty database of DATABASE_URL); a damaged WAL
                            archive refuses --to unless --accept-loss-after names a time at or before its last
                            good moment`;

/**
 * Commands that run without opening the database: restore must not create one, and a backup of an embedded
 * database that does not exist is refused rather than made of a new, empty one.
 */
export function isOfflineBackupCommand(argv: string[], config: Config): boolean {
  if (argv[0] === 'restore' || (argv[0] === 'backup' && (argv[1] === 'list' || argv[1] === 'verify')))
    return true;
  return (
    argv[0] === 'backup' && !config.databaseUrl && !existsSync(path.join(config.dataDir, 'pg', 'PG_VERSION'))
  );
}

/**
 * `backup list` and `restore`, which do not open the database.
 * @returns the exit code.
 */
export async function offlineBackupCommand(argv: string[], config: Config): Promise<number> {
  const [area, ...rest] = argv;
  try {
    if (area === 'backup' && rest[0] !== 'list' && rest[0] !== 'verify') {
      throw new BackupError(`no database in DATA_DIR ${config.dataDir} (set DATA_DIR or DATABASE_URL)`);
    }
    if (area === 'backup') {
      // Both read every file of every backup and of the archive; verify also fails when one is damaged.
      const dir = backupDir(rest[1], config);
      const listed = await listBackups(dir, { verify: true });
      console.log(formatList(listed));
      const archive = await archiveSummary(dir);
      if (archive) console.log(archive.text);
      const damaged = listed.some((b) => b.problem) || archive?.damaged === true;
      if (rest[0] === 'verify') {
        console.log(damaged ? 'verify: DAMAGED (see above)' : 'verify: every file matches its checksum');
        return damaged ? 1 : 0;
      }
      return 0;
    }
    const { backup, to, acceptLossAfter } = parseRestore(rest);
    const folder = await resolveBackup(backup, config.backup.dir);
    const started = performance.now();
    const result = await restoreBackup(
      folder,
      // A dump is restored by the owner, who then owns what it creates.
      { dataDir: config.dataDir, databaseUrl: config.databaseOwnerUrl ?? config.databaseUrl },
      to,
      acceptLossAfter === undefined ? {} : { acceptLossAfter },
    );
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const where = result.manifest.kind === 'dump' ? 'the database of DATABASE_URL' : config.dataDir;
    const moment =
      result.reached === 'backup'
        ? `the backup's moment (${result.manifest.finishedAt})`
        : result.reached === 'latest'
          ? 'the end of the WAL archive'
          : result.reached;
    console.log(`restored ${result.manifest.name} into ${where} in ${seconds} s, to ${moment}`);
    if (result.lastTransaction) console.log(`last transaction replayed: ${result.lastTransaction}`);
    if (result.lossAccepted)
      console.error(
        `WAL archive damaged at segment ${result.lossAccepted.segment} (${result.lossAccepted.reason}): restored up to it as accepted; at least ${result.lossAccepted.commitsBeyond} committed transaction(s) after it are lost`,
      );
    for (const failure of result.auditFailures) console.error(failure);
    if (result.auditFailures.length > 0) {
      console.error(`audit of the restored database FAILED: ${result.auditFailures.length} problem(s)`);
      return 1;
    }
    console.log('audit passed: every currency is conserved and every balance equals its postings');
    if (result.manifest.kind === 'base') console.log(`start the app with DATA_DIR=${config.dataDir}`);
    return 0;
  } catch (err) {
    if (err instanceof BackupError) {
      console.error(`${area} refused: ${err.message}`);
      return 1;
    }
    throw err;
  }
}

/**
 * `backup [dir]`: one backup of the open database, then retention when it went into BACKUP_DIR.
 * @returns the exit code (1 when the audit at that moment failed: the backup is kept, the operator warned).
 */
export async function backupCommand(argv: string[], config: Config, database: Database): Promise<number> {
  try {
    const dir = backupDir(argv[1], config);
    const started = performance.now();
    // As the superuser of the embedded server (a base backup needs it) or the owner of an external one.
    const admin = createPool(database.adminUrl, 3);
    const { path: folder, manifest } = await takeBackup(
      { pool: admin, url: database.adminUrl, ...(database.embedded ? { dataDir: config.dataDir } : {}) },
      dir,
    ).finally(() => admin.end());
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `backup ${manifest.name} written to ${folder}: ${manifest.kind}, ${humanSize(manifest.bytes)}, ${manifest.files.length} files, ${seconds} s`,
    );
    if (config.backup.dir && path.resolve(dir) === config.backup.dir) {
      const pruned = await pruneBackups(dir, config.backup.keep);
      if (pruned.length > 0)
        console.log(`retention (BACKUP_KEEP=${config.backup.keep}) deleted ${pruned.join(', ')}`);
    }
    const archiving = await archiveProblem(database.pool);
    if (archiving) console.warn(archiving);
    if (manifest.kind === 'base' && !(await archivingOn(database.pool))) {
      console.log(
        'WAL archiving is off (the app runs without BACKUP_DIR): this backup restores to its own moment only',
      );
    }
    for (const failure of manifest.audit.failures) console.error(failure);
    if (!manifest.audit.passed) {
      console.error('audit at the moment of the backup FAILED (the backup is kept)');
      return 1;
    }
    console.log('audit at the moment of the backup passed');
    return 0;
  } catch (err) {
    if (err instanceof BackupError) {
      console.error(`backup refused: ${err.message}`);
      return 1;
    }
    throw err;
  }
}

function backupDir(arg: string | undefined, config: Config): string {
  const dir = arg ?? config.backup.dir;
  if (!dir) throw new BackupError('no backup folder: give one (backup <dir>) or set BACKUP_DIR');
  return path.resolve(dir);
}

const RESTORE_USAGE =
  'usage: restore <backup> [--to <timestamp> | --to latest] [--accept-loss-after <timestamp>]';

function parseRestore(args: string[]): {
  backup: string;
  to: string | undefined;
  acceptLossAfter: string | undefined;
} {
  const [backup, ...flags] = args;
  if (!backup || backup.startsWith('--')) throw new BackupError(RESTORE_USAGE);
  const given = new Map<string, string>();
  for (let i = 0; i < flags.length; i += 2) {
    const [flag, value] = [flags[i], flags[i + 1]];
    if ((flag !== '--to' && flag !== '--accept-loss-after') || !value || given.has(flag))
      throw new BackupError(RESTORE_USAGE);
    given.set(flag, value);
  }
  return { backup, to: given.get('--to'), acceptLossAfter: given.get('--accept-loss-after') };
}
