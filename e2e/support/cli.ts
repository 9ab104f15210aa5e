import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { suiteApp } from './suite-app.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The server's operator command line, through the package's declared entry (not a path into its folder). */
const CLI = createRequire(import.meta.url).resolve('@exchange/server/cli');

/** Runs an operator command (`npm run cli -- <args>`) against the started app's database; returns its output. */
export async function operator(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'warn', ...suiteApp().cliEnv },
    timeout: 60_000,
  });
  return stdout;
}
