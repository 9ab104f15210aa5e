import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, open, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The manifest's format tag; a backup with another one is refused rather than misread. */
export const FORMAT = 'exchange-backup/1';
export const MANIFEST = 'manifest.json';
/** The sha256 of `manifest.json`, so that a damaged manifest is refused like any damaged file. */
export const MANIFEST_SUM = 'manifest.sha256';

/** One file of a backup: its path inside the backup folder, its size and its sha256 (hex). */
export interface FileEntry {
  path: string;
  size: number;
  sha256: string;
}

/** The WAL a physical backup needs: its timeline and the first and last segment (both inside the backup). */
export interface WalRange {
  timeline: number;
  startLsn: string;
  stopLsn: string;
  startFile: string;
  stopFile: string;
}

/** The ledger audit's result at the moment of the backup. */
export interface AuditSummary {
  passed: boolean;
  failures: string[];
}

/** What `manifest.json` holds: how the backup was made, when, its audit, and every file with its checksum. */
export interface Manifest {
  format: typeof FORMAT;
  name: string;
  /** `base`: the embedded cluster's files plus its WAL (pg_backup_start/stop); `dump`: `pg_dump -Fc`. */
  kind: 'base' | 'dump';
  /** PostgreSQL server version, e.g. `17.10`. */
  postgres: string;
  startedAt: string;
  finishedAt: string;
  wal?: WalRange;
  audit: AuditSummary;
  /** Folders to create on restore (some are copied empty on purpose, e.g. `pgdata/pg_replslot`). */
  dirs: string[];
  files: FileEntry[];
  bytes: number;
}

const CHUNK = 1 << 20;

/**
 * Copies `src` to `dst` (created, never overwritten) while hashing it, and makes the copy durable.
 * Reads to the end as it is at that moment (a file still growing is copied as far as it went).
 * @returns the size and sha256 of what was copied, or `undefined` when `src` no longer exists.
 */
export async function copyHashed(src: string, dst: string): Promise<Omit<FileEntry, 'path'> | undefined> {
  let input: Awaited<ReturnType<typeof open>>;
  try {
    input = await open(src, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    await mkdir(path.dirname(dst), { recursive: true });
    const output = await open(dst, 'wx', 0o600);
    try {
      const hash = createHash('sha256');
      const buffer = Buffer.allocUnsafe(CHUNK);
      let size = 0;
      for (;;) {
        const { bytesRead } = await input.read(buffer, 0, CHUNK, null);
        if (bytesRead === 0) break;
        const chunk = buffer.subarray(0, bytesRead);
        hash.update(chunk);
        await output.write(chunk);
        size += bytesRead;
      }
      await output.sync();
      return { size, sha256: hash.digest('hex') };
    } finally {
      await output.close();
    }
  } finally {
    await input.close();
  }
}

/** Writes `data` as a new file of the backup and returns its manifest entry. */
export async function writeHashed(root: string, relative: string, data: string | Buffer): Promise<FileEntry> {
  const file = path.join(root, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, data, { mode: 0o600, flag: 'wx' });
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  return { path: relative, size: bytes.length, sha256: sha256(bytes) };
}

/** Writes `manifest.json` and its checksum into the backup folder `root`. */
export async function writeManifest(root: string, manifest: Manifest): Promise<void> {
  const text = `${JSON.stringify(manifest, null, 2)}\n`;
  await writeFile(path.join(root, MANIFEST), text, { mode: 0o600 });
  await writeFile(path.join(root, MANIFEST_SUM), `${sha256(Buffer.from(text))}  ${MANIFEST}\n`, {
    mode: 0o600,
  });
}

/** A backup that cannot be used; its message is one line for the operator. */
export class BackupError extends Error {}

/**
 * Reads and checks the manifest of the backup folder `root`.
 * @throws BackupError when the folder is not a backup, or its manifest is incomplete or damaged.
 */
export async function readManifest(root: string): Promise<Manifest> {
  const name = path.basename(root);
  if (!existsSync(path.join(root, MANIFEST)) || !existsSync(path.join(root, MANIFEST_SUM))) {
    throw new BackupError(`${root} is not a complete backup (no ${MANIFEST} or ${MANIFEST_SUM})`);
  }
  const text = await readFile(path.join(root, MANIFEST));
  const expected = (await readFile(path.join(root, MANIFEST_SUM), 'utf8')).split(/\s/)[0];
  if (sha256(text) !== expected) {
    throw new BackupError(`backup ${name} is damaged: ${MANIFEST} does not match its checksum`);
  }
  let manifest: Manifest;
  try {
    manifest = JSON.parse(text.toString('utf8')) as Manifest;
  } catch {
    throw new BackupError(`backup ${name} is damaged: ${MANIFEST} is not JSON`);
  }
  if (manifest.format !== FORMAT) {
    throw new BackupError(`backup ${name} has format ${String(manifest.format)}, expected ${FORMAT}`);
  }
  return manifest;
}

/**
 * Checks that every file of the manifest is in `root` with its size (a quick pass that finds truncation and
 * missing files before any long copy).
 * @throws BackupError naming the first file that is missing or has the wrong size.
 */
export async function checkSizes(root: string, manifest: Manifest): Promise<void> {
  for (const file of manifest.files) {
    const found = await stat(path.join(root, file.path)).catch(() => undefined);
    if (!found) throw new BackupError(`backup ${manifest.name} is damaged: ${file.path} is missing`);
    if (found.size !== file.size) {
      throw new BackupError(
        `backup ${manifest.name} is damaged: ${file.path} has ${found.size} bytes, expected ${file.size} (truncated or changed)`,
      );
    }
  }
}

/** The error for a file whose content does not match the manifest. */
export function checksumError(manifest: Manifest, file: FileEntry): BackupError {
  return new BackupError(
    `backup ${manifest.name} is damaged: ${file.path} does not match its sha256 checksum (corrupted)`,
  );
}

export function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Reads a whole file and returns its sha256 (for verifying a backup in place). */
export async function hashFile(file: string): Promise<string> {
  const input = await open(file, 'r');
  try {
    const hash = createHash('sha256');
    const buffer = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const { bytesRead } = await input.read(buffer, 0, CHUNK, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
    }
    return hash.digest('hex');
  } finally {
    await input.close();
  }
}
