import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { auditInSnapshot } from './audit.ts';
import { createTemporarySlot, startBackup, stopBackup } from './backup-repository.ts';
import { type AuditSummary, copyHashed, type FileEntry, type WalRange, writeHashed } from './manifest.ts';

/** Where the cluster's files go inside a backup folder, and the cluster's password file. */
export const PGDATA = 'pgdata';
export const PASSWORD_FILE = 'pg-password';

/**
 * Folders whose content PostgreSQL rebuilds at start (as pg_basebackup leaves them empty); `pg_wal` is copied
 * separately, only the segments the backup needs.
 */
const EMPTY_DIRS = new Set([
  'pg_wal',
  'pg_stat_tmp',
  'pg_replslot',
  'pg_dynshmem',
  'pg_notify',
  'pg_serial',
  'pg_snapshots',
  'pg_subtrans',
]);
/** Files of a running server that must not be in a backup. */
const SKIP_FILES = new Set([
  'postmaster.pid',
  'postmaster.opts',
  'backup_label',
  'tablespace_map',
  'backup_manifest',
  'current_logfiles',
  'postgresql.auto.conf.tmp',
]);

/** What a base backup wrote: its files and folders, the WAL range it needs and the audit taken meanwhile. */
export interface BaseBackupResult {
  files: FileEntry[];
  dirs: string[];
  wal: WalRange;
  audit: AuditSummary;
}

/**
 * An online, consistent physical backup of the embedded cluster with PostgreSQL's low-level backup API
 * (what pg_basebackup does over the replication protocol): `pg_backup_start`, a copy of the cluster's files
 * while the server runs, `pg_backup_stop`, whose backup label makes the copy recover to the moment of the stop,
 * and the WAL from the start to the stop, held meanwhile by a temporary replication slot. The backup is whole
 * without the WAL archive, so it does not wait for it (a failing archive would make it wait forever).
 */
export async function takeBaseBackup(
  pool: pg.Pool,
  clusterDir: string,
  dataDir: string,
  target: string,
): Promise<BaseBackupResult> {
  const client = await pool.connect();
  let broken = false;
  try {
    const slot = `backup_${process.pid}_${randomBytes(4).toString('hex')}`;
    // Temporary: PostgreSQL drops it when this session ends, even if this process dies.
    await createTemporarySlot(client, slot);
    await startBackup(client, path.basename(target));
    const files: FileEntry[] = [];
    const dirs: string[] = [PGDATA];
    await copyTree(clusterDir, path.join(target, PGDATA), PGDATA, files, dirs);
    const password = await copyHashed(path.join(dataDir, '.pg-password'), path.join(target, PASSWORD_FILE));
    if (password) files.push({ path: PASSWORD_FILE, ...password });
    const audit = await auditInSnapshot(pool);
    const stop = await stopBackup(client);
    if (!stop) throw new Error('pg_backup_stop returned nothing');
    files.push(await writeHashed(target, `${PGDATA}/backup_label`, stop.labelfile));
    const wal = walRange(stop.labelfile, stop.lsn, stop.walfile);
    await copyWal(path.join(clusterDir, 'pg_wal'), target, wal, files);
    return { files, dirs, wal, audit };
  } catch (err) {
    // Ending the session aborts the backup and drops the slot.
    broken = true;
    throw err;
  } finally {
    client.release(broken);
  }
}

/** Copies `from` into `to`, recording files and folders relative to the backup folder. */
async function copyTree(
  from: string,
  to: string,
  relative: string,
  files: FileEntry[],
  dirs: string[],
): Promise<void> {
  const entries = await readdir(from, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  for (const entry of entries) {
    const rel = `${relative}/${entry.name}`;
    if (entry.isDirectory()) {
      dirs.push(rel);
      const top = relative === PGDATA;
      if (top && entry.name === 'pg_wal') dirs.push(`${rel}/archive_status`);
      if ((top && EMPTY_DIRS.has(entry.name)) || entry.name.startsWith('pgsql_tmp')) continue;
      await copyTree(path.join(from, entry.name), path.join(to, entry.name), rel, files, dirs);
    } else if (entry.isFile()) {
      if (relative === PGDATA && SKIP_FILES.has(entry.name)) continue;
      if (entry.name.startsWith('pg_internal.init')) continue;
      // A relation dropped meanwhile is gone; the WAL replay knows.
      const copied = await copyHashed(path.join(from, entry.name), path.join(to, entry.name));
      if (copied) files.push({ path: rel, ...copied });
    }
  }
}

/** The WAL range from the backup label (`START WAL LOCATION: 0/2000028 (file 000000010000000000000002)`). */
function walRange(label: string, stopLsn: string, stopFile: string): WalRange {
  const start = /START WAL LOCATION: (\S+) \(file ([0-9A-F]{24})\)/.exec(label);
  const timeline = /START TIMELINE: (\d+)/.exec(label);
  if (!start?.[1] || !start[2] || !timeline?.[1]) throw new Error(`unexpected backup label: ${label}`);
  return {
    timeline: Number(timeline[1]),
    startLsn: start[1],
    stopLsn,
    startFile: start[2],
    stopFile,
  };
}

/** Copies the WAL segments from the start to the stop of the backup into its `pg_wal`; all must be there. */
async function copyWal(walDir: string, target: string, wal: WalRange, files: FileEntry[]): Promise<void> {
  const first = segmentNumber(wal.startFile);
  const last = segmentNumber(wal.stopFile);
  const timeline = wal.startFile.slice(0, 8);
  for (let n = first; n <= last; n++) {
    const name = `${timeline}${segmentName(n)}`;
    const rel = `${PGDATA}/pg_wal/${name}`;
    const copied = await copyHashed(path.join(walDir, name), path.join(target, rel));
    if (!copied) throw new Error(`WAL segment ${name} disappeared during the backup`);
    files.push({ path: rel, ...copied });
  }
}

/** A segment's position (log * 2^32 / 16 MiB + seg), assuming the default 16 MiB segments. */
function segmentNumber(file: string): number {
  return Number.parseInt(file.slice(8, 16), 16) * 0x100 + Number.parseInt(file.slice(16, 24), 16);
}

function segmentName(n: number): string {
  const hex = (v: number) => v.toString(16).toUpperCase().padStart(8, '0');
  return `${hex(Math.floor(n / 0x100))}${hex(n % 0x100)}`;
}
