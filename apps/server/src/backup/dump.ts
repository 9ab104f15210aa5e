import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type pg from 'pg';
import { withAuditedSnapshot } from './audit.ts';
import { type AuditSummary, BackupError, type FileEntry, hashFile } from './manifest.ts';
import { clientTool } from './tools.ts';

const run = promisify(execFile);

/** The dump's file name inside a backup folder. */
export const DUMP_FILE = 'database.dump';

/**
 * The connection as libpq environment variables, so the password never shows in a process list
 * (`PGPASSWORD`), and the URL without it for `--dbname`.
 */
export function libpqTarget(url: string): { dbname: string; env: Record<string, string> } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.toString(), env: password ? { PGPASSWORD: password } : {} };
}

/**
 * A logical backup of an external database: `pg_dump` in custom format from `PATH`, of exactly the snapshot
 * the ledger audit saw (`--snapshot`).
 */
export async function takeDump(
  pool: pg.Pool,
  url: string,
  target: string,
  serverMajor: number,
): Promise<{ files: FileEntry[]; audit: AuditSummary }> {
  const pgDump = await clientTool('pg_dump', serverMajor);
  const file = path.join(target, DUMP_FILE);
  const { dbname, env } = libpqTarget(url);
  return withAuditedSnapshot(pool, async (snapshot, audit) => {
    try {
      await run(
        pgDump,
        ['--format=custom', `--snapshot=${snapshot}`, `--file=${file}`, `--dbname=${dbname}`],
        {
          env: { ...process.env, ...env },
          maxBuffer: 16 << 20,
        },
      );
    } catch (err) {
      throw new BackupError(`pg_dump failed: ${lastLine(err)}`);
    }
    const { size } = await stat(file);
    return { files: [{ path: DUMP_FILE, size, sha256: await hashFile(file) }], audit };
  });
}

/**
 * Restores a verified dump into the external database at `url`, which must be empty: one transaction, so a
 * failure leaves it empty.
 * @throws BackupError when the database holds tables or pg_restore fails.
 */
export async function restoreDump(pool: pg.Pool, url: string, dumpFile: string): Promise<void> {
  const server = await pool.query<{ major: number; tables: number }>(
    `select current_setting('server_version_num')::int / 10000 as major,
       (select count(*)::int from pg_tables where schemaname not in ('pg_catalog', 'information_schema')) as tables`,
  );
  const { major = 0, tables = 0 } = server.rows[0] ?? {};
  if (tables > 0) {
    throw new BackupError(
      `the database of DATABASE_URL is not empty (${tables} tables); restore only into a new, empty database`,
    );
  }
  const pgRestore = await clientTool('pg_restore', major);
  const { dbname, env } = libpqTarget(url);
  try {
    await run(
      pgRestore,
      [
        '--no-owner',
        '--no-privileges',
        '--exit-on-error',
        '--single-transaction',
        `--dbname=${dbname}`,
        dumpFile,
      ],
      { env: { ...process.env, ...env }, maxBuffer: 16 << 20 },
    );
  } catch (err) {
    throw new BackupError(`pg_restore failed: ${lastLine(err)}`);
  }
}

function lastLine(err: unknown): string {
  const stderr = (err as { stderr?: string }).stderr ?? '';
  return (
    stderr
      .trim()
      .split('\n')
      .filter((l) => l.trim())
      .pop() ?? String(err)
  );
}
