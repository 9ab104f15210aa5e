import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFolder, buildServer } from '@exchange/server/build';
import { freePort } from '@exchange/server/harness';
import { percentile, printTable } from './stats.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WARM_STARTS = 3;

/** Seconds from spawning `args` until the app answers ready, then stops it (SIGTERM). */
async function timeStart(args: string[], env: Record<string, string>, port: number): Promise<number> {
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${port}/api/v2/peatio/public/health/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return (performance.now() - started) / 1000;
      if (child.exitCode !== null)
        throw new Error(`the app exited (code ${child.exitCode}) before it was ready`);
      if (performance.now() - started > 120_000) throw new Error('the app was not ready within 120 s');
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    // The app stops its signer child and its database itself.
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  }
}

/**
 * The one-process start as `npm start` runs it (the built server, embedded PostgreSQL, demo data): the first start
 * on an empty data folder, then warm starts with the database present, beside the same start from the TypeScript
 * source through tsx (`npm run serve`). Target (issue 27): a warm start ready in under 3 s.
 */
export async function startBench() {
  await buildServer();
  const dataDir = await mkdtemp(join(tmpdir(), 'exchange-bench-start-'));
  // Run as root, the embedded server runs as the postgres user, who must reach the folder (mkdtemp makes it 700).
  await chmod(dataDir, 0o755);
  const env = { DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await freePort()), DEMO_BOT: 'off' };
  const port = await freePort();
  const built = ['--max-semi-space-size=32', `${buildFolder()}main.js`];
  const source = [
    '--import',
    'tsx',
    '--max-semi-space-size=32',
    createRequire(import.meta.url).resolve('@exchange/server/main'),
  ];
  try {
    const first = await timeStart(built, env, port);
    const warmBuilt: number[] = [];
    const warmSource: number[] = [];
    for (let i = 0; i < WARM_STARTS; i++) {
      warmBuilt.push(await timeStart(built, env, port));
      warmSource.push(await timeStart(source, env, port));
    }
    const row = (name: string, runs: number[]) => [
      name,
      percentile(runs, 50).toFixed(2),
      Math.min(...runs).toFixed(2),
      Math.max(...runs).toFixed(2),
    ];
    printTable(
      `One-process start until ready (GET /public/health/ready answers 200), embedded PostgreSQL, demo data; ${WARM_STARTS} warm starts each. Target: warm start under 3 s`,
      ['start', 'median s', 'min s', 'max s'],
      [
        ['first start (empty data folder: initdb, migrations, demo seed)', first.toFixed(2), '-', '-'],
        row('warm start, built server (npm start)', warmBuilt),
        row('warm start, TypeScript through tsx (npm run serve)', warmSource),
      ],
    );
    return { first, warmBuilt, warmSource };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
