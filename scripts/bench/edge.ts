import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { plainUser, sessionFor } from '@exchange/server/harness';
import type pg from 'pg';
import { startBenchApp } from './bench-app.ts';
import { percentile, printTable } from './stats.ts';

const CLIENT = fileURLToPath(new URL('./edge-flood.ts', import.meta.url));

interface FloodResult {
  idle: number[];
  underFlood: number[];
  answers: Record<string, number>;
}

function flood(spec: Record<string, unknown>): Promise<FloodResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLIENT, JSON.stringify(spec)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c) => {
      out += c.toString();
    });
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`edge client exited ${code}`)),
    );
  });
}

/** Milliseconds the event loop spent in main's body hook (`Object.keys` of a Buffer body) for `bytes`. */
function oldHookMs(bytes: number): number {
  const body = Buffer.alloc(bytes);
  const started = performance.now();
  Object.keys(body);
  return performance.now() - started;
}

/**
 * Availability under big bodies (issue 25, item 1): the latency of `GET /public/health/alive`, alone and while
 * 1 MiB webhooks without credentials and a signed-in user's 10 MB upload are posted in loops, from a second
 * process. Beside it, what the same bodies cost main: its global hook enumerated a Buffer body's keys, one per
 * byte, on the event loop (measured here), and the issue's own probe figures.
 */
export async function edgeBench(fresh: () => Promise<{ pool: pg.Pool }>) {
  const { pool } = await fresh();
  // Rate limits off: every big request reaches the body limits (with them on, most would be a cheap 429).
  const { app, deps, base } = await startBenchApp(pool, {
    env: { WALLET_POLL_MS: '0', CARD_POLL_MS: '0', EVM_DEVNET: 'false' },
  });
  const user = await plainUser(pool, 'edge-bench@example.com');
  const session = await sessionFor(deps.sessions, user);
  const result = await flood({
    base,
    cookie: session.cookie,
    csrf: session['x-csrf-token'],
    idleSeconds: 2,
    floodSeconds: 6,
  });
  await app.close();
  await deps.core.sequencer.drain();
  await pool.end();
  const row = (name: string, latencies: number[], answers: string) => [
    name,
    latencies.length,
    percentile(latencies, 50).toFixed(1),
    percentile(latencies, 99).toFixed(1),
    Math.max(0, ...latencies).toFixed(1),
    answers,
  ];
  const answered = Object.entries(result.answers)
    .map(([status, n]) => `${status}x${n}`)
    .join(' ');
  const webhookMs = oldHookMs(1024 * 1024);
  const uploadMs = oldHookMs(10 * 1024 * 1024);
  printTable(
    'Health ping while big bodies arrive (issue 25 item 1; client in a second process)',
    ['measure', 'pings', 'p50 ms', 'p99 ms', 'max ms', 'big requests answered'],
    [
      row('ping alone', result.idle, '-'),
      row('ping during 4x 1 MiB webhooks + 10 MB upload, in loops', result.underFlood, answered),
      [
        "main's hook, measured here: event loop held per body",
        '-',
        '-',
        '-',
        `${(4 * webhookMs + uploadMs).toFixed(0)}`,
        `1 MiB: ${webhookMs.toFixed(0)} ms, 10 MiB: ${uploadMs.toFixed(0)} ms`,
      ],
      ['main, issue 25 probe (not run here): 4x 1 MiB webhooks', '-', '-', '-', '5300-6100', '-'],
      ['main, issue 25 probe (not run here): one 10 MB upload', '-', '-', '-', '10000-21000', '-'],
    ],
  );
  return result;
}
