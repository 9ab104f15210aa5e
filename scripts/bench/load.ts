import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const WORKER = fileURLToPath(new URL('./load-worker.ts', import.meta.url));

/** What one run of the load generator measured. */
export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  total: number;
  statusCodes: Record<string, { count: number }>;
  /** The load generator's own CPU time for the run (user and system, microseconds). */
  cpu: { user: number; system: number };
}

/** Runs the load generator with `spec` in a second process (see load-worker.ts) and returns its figures. */
export function load(spec: Record<string, unknown>): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER, JSON.stringify(spec)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c) => {
      out += c.toString();
    });
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load worker exited ${code}`)),
    );
  });
}
