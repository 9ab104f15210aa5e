import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { suiteApp } from './suite-app.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = fileURLToPath(new URL('../../apps/server/src/cli.ts', import.meta.url));

/** Runs an operator command (`npm run cli -- <args>`) against the started app's database; returns its output. */
export async function operator(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'warn', ...suiteApp().cliEnv },
    timeout: 60_000,
  });
  return stdout;
}
