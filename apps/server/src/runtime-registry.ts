import { existsSync, rmSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';

/**
 * Running apps announce themselves here so that the command line finds the database and port of the app that
 * runs, however it was started (DATA_DIR, PORT and EMBEDDED_PG_PORT of its own). One small JSON file per
 * process, removed when it stops; a file left by a killed process is ignored (its pid is gone, or is no app).
 */
export interface RunningApp {
  pid: number;
  /** The embedded database's data folder, absolute; null when the app uses DATABASE_URL. */
  dataDir: string | null;
  /** The HTTP port it listens on. */
  port: number;
}

/** Where running apps announce themselves: RUNTIME_DIR, or a folder of this user under the system's temp. */
export function runtimeDir(env: NodeJS.ProcessEnv): string {
  return env.RUNTIME_DIR ? path.resolve(env.RUNTIME_DIR) : path.join(tmpdir(), `exchange-${userInfo().uid}`);
}

/**
 * Announces this process; resolves with the function that withdraws the announcement (synchronous, so that it
 * also runs on `exit`).
 */
export async function announceRunningApp(dir: string, app: Omit<RunningApp, 'pid'>): Promise<() => void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `${process.pid}.json`);
  await writeFile(`${file}.tmp`, JSON.stringify({ pid: process.pid, ...app } satisfies RunningApp));
  await rename(`${file}.tmp`, file);
  return () => {
    try {
      rmSync(file, { force: true });
    } catch {
      // Gone already, or the folder was removed: nothing is announced.
    }
  };
}

/** The apps that run now (their process is alive and is our server), read from their announcements. */
export async function runningApps(dir: string): Promise<RunningApp[]> {
  const names = await readdir(dir).catch(() => []);
  const apps: RunningApp[] = [];
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    try {
      const app = JSON.parse(await readFile(path.join(dir, name), 'utf8')) as RunningApp;
      if (Number.isInteger(app.pid) && (await isOurServer(app.pid))) apps.push(app);
    } catch {
      // A file being written or not ours: not an app.
    }
  }
  return apps.sort((a, b) => a.pid - b.pid);
}

async function isOurServer(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // Where /proc exists, a reused pid is told apart by its command line (the embedded server's check too).
  if (!existsSync('/proc')) return true;
  const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  return cmdline.split('\0').some((arg) => /(^|\/)(src\/main\.ts|dist\/main\.js)$/.test(arg));
}

/** What the command line should use: extra environment for its configuration, or a one-line refusal. */
export type Located =
  | { ok: true; env: Record<string, string>; found?: RunningApp }
  | { ok: false; message: string };

const hasCluster = (dataDir: string) => existsSync(path.join(dataDir, 'pg', 'PG_VERSION'));

/**
 * Finds the database of the running app as the app itself does: DATABASE_URL, or the embedded server in
 * DATA_DIR (./data by default), and, when neither is set, the data folder and port the running app announced.
 * It never points at a folder without a database (the command line would create an empty one and answer "no
 * user"): it refuses instead, saying what to set. PORT (for commands the running app serves) is the announced
 * app's unless set.
 */
export function locateDatabase(env: NodeJS.ProcessEnv, running: readonly RunningApp[]): Located {
  const portOf = (app: RunningApp | undefined): Record<string, string> =>
    env.PORT || !app ? {} : { PORT: String(app.port) };
  if (env.DATABASE_URL) return { ok: true, env: portOf(onlyOne(running.filter((a) => a.dataDir === null))) };
  if (env.DATA_DIR) {
    const dataDir = path.resolve(env.DATA_DIR);
    if (!hasCluster(dataDir))
      return {
        ok: false,
        message: `no database in DATA_DIR=${dataDir}: set DATA_DIR to the data folder of the app (or DATABASE_URL)`,
      };
    return { ok: true, env: portOf(running.find((a) => a.dataDir === dataDir)) };
  }
  const embedded = running.filter((a): a is RunningApp & { dataDir: string } => a.dataDir !== null);
  if (embedded.length > 1) {
    const list = embedded.map((a) => `DATA_DIR=${a.dataDir} on port ${a.port}`).join(', ');
    return { ok: false, message: `several apps are running (${list}): set DATA_DIR to the one you mean` };
  }
  const [app] = embedded;
  if (app) return { ok: true, env: { DATA_DIR: app.dataDir, ...portOf(app) }, found: app };
  if (running.length > 0)
    return {
      ok: false,
      message:
        'the running app uses DATABASE_URL: set DATABASE_URL (and DATABASE_OWNER_URL) for the command line',
    };
  const dataDir = path.resolve('./data');
  if (!hasCluster(dataDir))
    return {
      ok: false,
      message: `no app is running and there is no database in ${dataDir}: start the app (npm start), or set DATA_DIR or DATABASE_URL to its database`,
    };
  return { ok: true, env: {} };
}

const onlyOne = <T>(list: readonly T[]): T | undefined => (list.length === 1 ? list[0] : undefined);
