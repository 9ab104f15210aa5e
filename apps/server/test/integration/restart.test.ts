import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/ports.ts';
import { BUILT_CLI, BUILT_MAIN, serverSetup, startServerProcess } from '../support/process.ts';

let dataDir: string;
let env: Record<string, string>;
let base: string;

beforeAll(async () => {
  ({ dataDir, env, base } = await serverSetup('exchange-restart-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

const alive = async () => (await fetch(`${base}/api/v2/peatio/public/health/alive`)).status;

describe('one process with its embedded database', () => {
  it('keeps data across a SIGKILL and a restart, then shuts down cleanly on SIGTERM', {
    timeout: 90_000,
  }, async () => {
    const first = await startServerProcess(env);
    expect(await alive()).toBe(200);
    const sent = await fetch(`${base}/api/v2/barong/identity/inquiry`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'keep@example.com',
        subject: 'Keep me',
        name: 'Kim',
        message: 'Durable?',
      }),
    });
    expect(sent.status).toBe(201);

    first.child.kill('SIGKILL');
    await first.exited;
    // The embedded server outlives a SIGKILLed parent; the next start must recover from it.
    const lock = path.join(dataDir, 'pg', 'postmaster.pid');
    expect(existsSync(lock)).toBe(true);

    const second = await startServerProcess(env);
    expect(second.output()).toContain('left running by an earlier run');
    expect(await alive()).toBe(200);
    const pgPassword = (await readFile(path.join(dataDir, '.pg-password'), 'utf8')).trim();
    const { default: pg } = await import('pg');
    const client = new pg.Client({
      connectionString: `postgresql://postgres:${pgPassword}@127.0.0.1:${env.EMBEDDED_PG_PORT}/exchange`,
    });
    await client.connect();
    const rows = await client.query(`select subject from contact_messages where email = 'keep@example.com'`);
    await client.end();
    expect(rows.rows).toEqual([{ subject: 'Keep me' }]);

    // The operator CLI shares the running embedded server instead of starting (or stopping) another.
    const cli = spawnSync(process.execPath, [BUILT_CLI, 'user', 'list'], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    expect(cli.status, cli.stderr).toBe(0);
    expect(cli.stdout).toContain('alice@example.com');
    // A second app on the same data folder is refused and leaves the first one running.
    const third = spawnSync(process.execPath, [BUILT_MAIN], {
      env: { ...process.env, ...env, PORT: String(await freePort()) },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(third.status).toBe(1);
    expect(third.stderr).toContain('another instance is already using');
    expect(await alive()).toBe(200);

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(existsSync(lock)).toBe(false);
  });
});
