import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { BUILT_CLI } from '@exchange/server/harness';
import { suiteApp } from './suite-app.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Runs an operator command (`npm run cli -- <args>`: the built command line, which the global setup built with the
 * server) against the started app's database; returns its output.
 */
export async function operator(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [BUILT_CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'warn', ...suiteApp().cliEnv },
    timeout: 60_000,
  });
  return stdout;
}
