import { existsSync } from 'node:fs';
import { chmod, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { takeBaseBackup } from './base-backup.ts';
import { backupName, PARTIAL } from './catalogue.ts';
import { takeDump } from './dump.ts';
import { BackupError, FORMAT, type Manifest, writeManifest } from './manifest.ts';

/** The database to back up: the app's pool and URL, and for the embedded server its DATA_DIR. */
export interface BackupSource {
  pool: pg.Pool;
  url: string;
  /** Set for the embedded server: DATA_DIR, whose `pg` cluster is copied. */
  dataDir?: string;
}

/**
 * Takes one backup into a new folder of `dir`: a base backup of the embedded cluster, or a `pg_dump` of an
 * external database. It is written as `<name>.partial` and renamed when complete, with its manifest (every
 * file's size and sha256, the ledger audit at that moment), so an interrupted backup never looks usable.
 * @returns the complete backup's folder and manifest.
 */
export async function takeBackup(
  source: BackupSource,
  dir: string,
): Promise<{ path: string; manifest: Manifest }> {
  const startedAt = new Date();
  const name = backupName(startedAt);
  const final = path.join(dir, name);
  const partial = `${final}${PARTIAL}`;
  if (existsSync(final) || existsSync(partial)) throw new BackupError(`${final} exists already`);
  await mkdir(dir, { recursive: true });
  await mkdir(partial, { mode: 0o700 });
  // The folder holds every balance and the cluster's password: only its owner may read it.
  await chmod(partial, 0o700);
  try {
    const version = await source.pool.query<{ version: string; major: number }>(
      `select current_setting('server_version') as version,
         current_setting('server_version_num')::int / 10000 as major`,
    );
    const { version: postgres = '?', major = 0 } = version.rows[0] ?? {};
    const body = source.dataDir
      ? { kind: 'base' as const, ...(await baseBackup(source, source.dataDir, partial)) }
      : { kind: 'dump' as const, dirs: [], ...(await takeDump(source.pool, source.url, partial, major)) };
    const manifest: Manifest = {
      format: FORMAT,
      name,
      kind: body.kind,
      postgres: postgres.split(' ')[0] ?? postgres,
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      ...('wal' in body ? { wal: body.wal } : {}),
      audit: body.audit,
      dirs: body.dirs,
      files: body.files,
      bytes: body.files.reduce((sum, f) => sum + f.size, 0),
    };
    await writeManifest(partial, manifest);
    await rename(partial, final);
    return { path: final, manifest };
  } catch (err) {
    await rm(partial, { recursive: true, force: true });
    throw err;
  }
}

async function baseBackup(source: BackupSource, dataDir: string, target: string) {
  const segment = await source.pool.query<{ bytes: string }>(
    `select setting as bytes from pg_settings where name = 'wal_segment_size'`,
  );
  if (segment.rows[0]?.bytes !== String(16 * 1024 * 1024)) {
    throw new BackupError(
      'the embedded server does not use 16 MiB WAL segments; back it up with pg_basebackup',
    );
  }
  return takeBaseBackup(source.pool, path.join(dataDir, 'pg'), dataDir, target);
}
