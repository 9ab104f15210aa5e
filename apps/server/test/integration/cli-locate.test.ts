import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_CLI, type ServerProcess, serverSetup, startServerProcess } from '../support/process.ts';

/**
 * The command line finds the running app's database and port by itself, however the app was started, and
 * refuses in one line (saying what to set) where there is no database, instead of making an empty one and
 * answering "no user" (issue 32 item 10).
 */
let dataDir: string;
let env: Record<string, string>;
let elsewhere: string;
let runtime: string;
let server: ServerProcess | undefined;

/** The environment of the shell, without anything that says where the app's database or port is. */
function bareEnvironment(): Record<string, string> {
  const bare: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !['DATA_DIR', 'PORT', 'EMBEDDED_PG_PORT', 'DATABASE_URL'].includes(k)) bare[k] = v;
  return { ...bare, NODE_ENV: 'development', LOG_LEVEL: 'warn', RUNTIME_DIR: runtime };
}

/** `npm run cli -- …` (the built command line) from a folder of its own, with `extra` environment only. */
function cli(args: string[], extra: Record<string, string> = {}) {
  return spawnSync(process.execPath, [BUILT_CLI, ...args], {
    cwd: elsewhere,
    env: { ...bareEnvironment(), ...extra },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

beforeAll(async () => {
  ({ dataDir, env } = await serverSetup('exchange-cli-locate-'));
  elsewhere = await mkdtemp(path.join(tmpdir(), 'exchange-cli-cwd-'));
  runtime = await mkdtemp(path.join(tmpdir(), 'exchange-cli-runtime-'));
});
afterAll(async () => {
  if (server) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  for (const dir of [dataDir, elsewhere, runtime]) await rm(dir, { recursive: true, force: true });
});

describe('the command line without DATA_DIR, PORT or EMBEDDED_PG_PORT', () => {
  it('refuses in one line when no app runs and there is no database, and creates none', async () => {
    const res = cli(['user', 'list']);
    expect(res.status).toBe(1);
    expect(res.stdout).toBe('');
    const lines = res.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('no app is running');
    expect(lines[0]).toContain('DATA_DIR');
    expect(existsSync(path.join(elsewhere, 'data'))).toBe(false);
    // A DATA_DIR that holds no database is refused too, and stays empty.
    const empty = await mkdtemp(path.join(tmpdir(), 'exchange-cli-empty-'));
    const named = cli(['user', 'show', 'alice@example.com'], { DATA_DIR: empty });
    expect(named.status).toBe(1);
    expect(named.stderr.trim()).toBe(
      `no database in DATA_DIR=${empty}: set DATA_DIR to the data folder of the app (or DATABASE_URL)`,
    );
    expect(await readdir(empty)).toEqual([]);
    await rm(empty, { recursive: true, force: true });
  });

  it("uses the running app's database and port, wherever it keeps them", { timeout: 120_000 }, async () => {
    server = await startServerProcess({ ...env, RUNTIME_DIR: runtime, SIM_BLOCK_MS: '0' });
    const shown = cli(['user', 'show', 'alice@example.com']);
    expect(shown.status, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ email: 'alice@example.com' });
    expect(shown.stderr).toContain(`using the running app's database in ${dataDir}`);
    // A command the running app serves (mining on a simulated chain) reaches it on its own port.
    const mined = cli(['mine', 'tron-sim', '2']);
    expect(mined.status, mined.stderr).toBe(0);
    expect(mined.stdout).toMatch(/tron-sim/);
    expect(existsSync(path.join(elsewhere, 'data'))).toBe(false);
  });

  // It starts a second app (a fresh database: initdb, migrations, seed), as the test above starts the first.
  it('refuses in one line when several apps run, naming their data folders', {
    timeout: 120_000,
  }, async () => {
    const { announceRunningApp } = await import('../../src/runtime-registry.ts');
    // A second app is simulated by announcing this test process (a vitest worker) under another folder:
    // the command line only counts announcements of live processes running the app's main, so it is not counted…
    const withdraw = await announceRunningApp(runtime, { dataDir: '/nowhere', port: 1 });
    try {
      const ignored = cli(['user', 'show', 'alice@example.com']);
      expect(ignored.status, ignored.stderr).toBe(0);
    } finally {
      withdraw();
    }
    // …while a second real app is.
    const second = await serverSetup('exchange-cli-second-');
    const other = await startServerProcess({ ...second.env, RUNTIME_DIR: runtime, SIM_BLOCK_MS: '0' });
    try {
      const res = cli(['user', 'list']);
      expect(res.status).toBe(1);
      const lines = res.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('several apps are running');
      expect(lines[0]).toContain(dataDir);
      expect(lines[0]).toContain(second.dataDir);
      // Naming one of them settles it.
      const named = cli(['user', 'show', 'alice@example.com'], { DATA_DIR: second.dataDir });
      expect(named.status, named.stderr).toBe(0);
    } finally {
      other.child.kill('SIGTERM');
      await other.exited;
      await rm(second.dataDir, { recursive: true, force: true });
    }
  });
});
