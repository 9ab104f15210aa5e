import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './ports.ts';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
/**
 * The built server (`npm run build:server`), as `npm start` runs it. The test setups build it when a source file
 * changed (`buildServerIfStale`, build.mjs).
 */
export const BUILT_MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
/** The built projector thread (support/built-projector.ts). */
export const BUILT_PROJECTOR = new URL('../../dist/projector-worker.js', import.meta.url);
/** The built operator command line, as `npm run cli` runs it. */
export const BUILT_CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** The server started as a real child process, as `npm start` would run it. */
export interface ServerProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code once the process ends. */
  exited: Promise<number | null>;
}

/**
 * Spawns the built `main.js` (or, `from: 'source'`, `main.ts` through tsx) with the given environment and waits
 * until it reports that it is running (or, with `readyText`, until its output says that: a standby core says so
 * before it serves). The build is what production runs, and it starts without compiling a thousand modules first.
 */
export async function startServerProcess(
  env: Record<string, string>,
  timeoutMs = 60_000,
  readyText = 'Exchange is running',
  /** `built`: the bundle in apps/server/dist (the test setups build it), with no TypeScript loader. */
  from: 'source' | 'built' = 'built',
  /** Node's own options before the entry point (e.g. `--import` of a module-load recorder). */
  nodeArgs: string[] = [],
): Promise<ServerProcess> {
  // A test's app announces itself (for the command line) inside its own data folder, not where the apps of the
  // machine's user are looked for: a developer's `npm run cli` does not find the test suite's apps.
  const runtime = env.DATA_DIR ? { RUNTIME_DIR: path.join(env.DATA_DIR, 'run') } : {};
  const args = [...nodeArgs, ...(from === 'built' ? [BUILT_MAIN] : ['--import', 'tsx', MAIN])];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', ...runtime, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + timeoutMs;
  while (!output.includes(readyText)) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    if (Date.now() > deadline) {
      await stopUnstarted(child, exited, env.DATA_DIR);
      throw new Error(`server did not start in ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, output: () => output, exited };
}

/**
 * Stops a server that did not get ready in time, and what it started: asked to stop (it stops its embedded
 * PostgreSQL and its signer), then killed if it has not within 10 s. A PostgreSQL left behind in `dataDir` (the
 * app killed before it could stop it) is stopped too: a timed-out start on a loaded machine left one running.
 */
async function stopUnstarted(
  child: ChildProcess,
  exited: Promise<number | null>,
  dataDir: string | undefined,
): Promise<void> {
  child.kill('SIGTERM');
  const stopped = await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]);
  if (!stopped) child.kill('SIGKILL');
  if (!dataDir) return;
  const pid = Number(
    (await readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').catch(() => '')).split('\n')[0],
  );
  if (Number.isSafeInteger(pid) && pid > 0) {
    try {
      process.kill(pid, 'SIGINT');
    } catch {
      // Gone already.
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A fresh data folder and free loopback ports for a server process: its environment and its base URL. */
export async function serverSetup(
  prefix: string,
  extra: Record<string, string> = {},
): Promise<{ dataDir: string; env: Record<string, string>; base: string }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), prefix));
  // PostgreSQL runs as its own user when we are root; it must be able to enter the folder.
  await chmod(dataDir, 0o755);
  const port = await freePort();
  const env = {
    DATA_DIR: dataDir,
    PORT: String(port),
    EMBEDDED_PG_PORT: String(await freePort()),
    WEB_DIST: '/nonexistent',
    CAPTCHA_TYPE: 'none',
    // The demo markets' 90 days of past trades take most of a first start (7.6 of 12.8 s here), and the demo
    // liquidity bot trades every few seconds; a test that wants them asks for them.
    DEMO_BOOKS: 'false',
    DEMO_BOT: 'off',
    // Withdrawals to a just-saved address would wait for staff; the review tests turn the rules on.
    WITHDRAW_REVIEW_NEW_BENEFICIARY_HOURS: '0',
    WITHDRAW_REVIEW_PASS_THROUGH_MINUTES: '0',
    ...extra,
  };
  return { dataDir, env, base: `http://127.0.0.1:${port}` };
}
