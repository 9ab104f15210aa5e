import { existsSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { CHECKSUM_SUFFIX, pruneArchive, WAL_FOLDER } from './archive.ts';
import { BackupError, checkSizes, checksumError, hashFile, type Manifest, readManifest } from './manifest.ts';
import { checksumProblem } from './wal-check.ts';

/** Backup folders are named `backup-<UTC time>`; one still being written ends in `.partial`. */
export const PREFIX = 'backup-';
export const PARTIAL = '.partial';

/** A folder in a backup directory: a complete backup with its manifest, or why it is not usable. */
export interface Listed {
  name: string;
  path: string;
  manifest?: Manifest;
  problem?: string;
}

/** A new backup's name from its start time, e.g. `backup-20261123T200000Z`. */
export function backupName(at: Date): string {
  return `${PREFIX}${at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}`;
}

/**
 * The backups in `dir`, oldest first (complete ones with their manifest; others with their problem). With
 * `verify`, every file of each backup is read and checked against its manifest, and a damaged backup is listed
 * with its problem.
 */
export async function listBackups(dir: string, options: { verify?: boolean } = {}): Promise<Listed[]> {
  const names = (await readdir(dir, { withFileTypes: true }).catch(() => []))
    .filter((e) => e.isDirectory() && e.name.startsWith(PREFIX))
    .map((e) => e.name)
    .sort();
  const listed: Listed[] = [];
  for (const name of names) {
    const folder = path.join(dir, name);
    if (name.endsWith(PARTIAL)) {
      listed.push({ name, path: folder, problem: 'incomplete (still running, or interrupted)' });
      continue;
    }
    try {
      const manifest = await readManifest(folder);
      if (options.verify) await verifyFiles(folder, manifest);
      listed.push({ name, path: folder, manifest });
    } catch (err) {
      listed.push({ name, path: folder, problem: err instanceof Error ? err.message : String(err) });
    }
  }
  return listed;
}

/** @throws BackupError naming the first file of the backup that is missing, truncated or corrupted. */
async function verifyFiles(folder: string, manifest: Manifest): Promise<void> {
  await checkSizes(folder, manifest);
  for (const file of manifest.files) {
    if ((await hashFile(path.join(folder, file.path))) !== file.sha256) throw checksumError(manifest, file);
  }
}

/**
 * Finds the backup an operator named: a folder path, a name inside BACKUP_DIR, or `latest` (the newest
 * complete backup in BACKUP_DIR).
 * @throws BackupError when there is no such backup.
 */
export async function resolveBackup(arg: string, backupDir: string | undefined): Promise<string> {
  if (arg === 'latest') {
    if (!backupDir) throw new BackupError('"latest" needs BACKUP_DIR; give the backup folder instead');
    const newest = (await listBackups(backupDir)).filter((b) => b.manifest).pop();
    if (!newest) throw new BackupError(`no complete backup in ${backupDir}`);
    return newest.path;
  }
  if (existsSync(arg)) return path.resolve(arg);
  if (backupDir && existsSync(path.join(backupDir, arg))) return path.join(backupDir, arg);
  throw new BackupError(`no backup ${arg}${backupDir ? ` (nor in ${backupDir})` : ''}`);
}

/**
 * Retention: keeps the newest `keep` complete backups in `dir` and deletes older ones, interrupted backups
 * older than the newest complete one, and archived WAL older than the oldest kept base backup.
 * @returns the names deleted.
 */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  const listed = await listBackups(dir);
  const complete = listed.filter((b) => b.manifest);
  const kept = complete.slice(-keep);
  const newest = kept[kept.length - 1]?.name ?? '';
  const doomed = [
    ...complete.slice(0, Math.max(0, complete.length - keep)),
    ...listed.filter((b) => !b.manifest && b.name < newest),
  ];
  for (const backup of doomed) await rm(backup.path, { recursive: true, force: true });
  const oldestBase = kept.find((b) => b.manifest?.wal)?.manifest?.wal;
  if (oldestBase) await pruneArchive(path.join(dir, WAL_FOLDER), oldestBase.startFile);
  return doomed.map((b) => b.name);
}

/** `backup list` as text: one line per backup with its time, kind, size and audit result. */
export function formatList(listed: Listed[]): string {
  if (listed.length === 0) return 'no backups';
  const rows = listed.map((b) => {
    const m = b.manifest;
    if (!m || b.problem) return [b.name, '-', '-', '-', `UNUSABLE: ${b.problem}`];
    const audit = m.audit.passed ? 'audit passed' : `audit FAILED (${m.audit.failures.length})`;
    const seconds = (Date.parse(m.finishedAt) - Date.parse(m.startedAt)) / 1000;
    return [b.name, m.finishedAt, m.kind, humanSize(m.bytes), `${audit}, took ${seconds.toFixed(1)} s`];
  });
  const header = ['NAME', 'FINISHED (UTC)', 'KIND', 'SIZE', 'AUDIT'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  return [header, ...rows]
    .map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  '))
    .join('\n');
}

/**
 * How far a point-in-time restore from `dir` can reach: the archived WAL next to the backups, its newest
 * segment and when it was archived, with every archived file checked against its checksum (`damaged`: at least
 * one is not good, and the text names the first); `undefined` when there is no archive.
 */
export async function archiveSummary(dir: string): Promise<{ text: string; damaged: boolean } | undefined> {
  const archive = path.join(dir, WAL_FOLDER);
  const names = await readdir(archive).catch(() => undefined);
  if (!names) return undefined;
  const archived = names.filter(
    (n) => /^[0-9A-F]{8}/.test(n) && !n.endsWith('.tmp') && !n.endsWith(CHECKSUM_SUFFIX),
  );
  const segments = archived
    .filter((n) => /^[0-9A-F]{24}$/.test(n))
    .sort((a, b) => a.slice(8).localeCompare(b.slice(8)));
  const newest = segments[segments.length - 1];
  if (!newest)
    return {
      text: `WAL archive ${archive}: empty (point-in-time restores need a backup taken while archiving)`,
      damaged: false,
    };
  const at = (await stat(path.join(archive, newest))).mtime.toISOString();
  const total = segments.length * 16 * 1024 * 1024;
  const text = `WAL archive ${archive}: ${segments.length} segments (${humanSize(total)}), newest ${newest} archived ${at}`;
  for (const name of archived.sort()) {
    const problem = await checksumProblem(archive, name);
    if (problem)
      return {
        text: `${text}; DAMAGED: ${name} ${problem} (a point-in-time restore stops before it)`,
        damaged: true,
      };
  }
  return { text: `${text}; every file matches its checksum`, damaged: false };
}

/** Bytes as B, KiB, MiB or GiB with one decimal. */
export function humanSize(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(1)} ${units[unit]}`;
}
