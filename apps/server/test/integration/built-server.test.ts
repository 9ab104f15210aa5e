import { execFileSync } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignedApiClient } from '../../src/demo/api-client.ts';
import { apiKeyFor } from '../support/api-key.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { type ServerProcess, serverSetup, startServerProcess } from '../support/process.ts';

// `npm start` runs the server built into plain JavaScript (apps/server/build.mjs): the app, its signer child and
// the projector's worker thread, each from the bundle, with no TypeScript loader anywhere.
const SERVER = fileURLToPath(new URL('../../', import.meta.url));
let db: TestDatabase;
let server: ServerProcess;
let base: string;
let dataDir: string;

beforeAll(async () => {
  execFileSync(process.execPath, ['build.mjs'], { cwd: SERVER, stdio: 'pipe' });
  db = await createTestDatabase();
  const setup = await serverSetup('exchange-built-', { DATABASE_URL: db.url, DEMO_BOOKS: 'false' });
  ({ base, dataDir } = setup);
  server = await startServerProcess(setup.env, 60_000, 'Exchange is running', 'built');
}, 120_000);

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  await db?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('the built server', () => {
  it('runs from apps/server/dist without tsx, in the app, the signer child and the projector thread', async () => {
    const bundle = await readFile(`${SERVER}dist/main.js`, 'utf8');
    expect(bundle).not.toMatch(/from ["']tsx/);
    const pid = server.child.pid as number;
    const cmdline = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
    expect(cmdline.some((arg) => arg.endsWith('apps/server/dist/main.js'))).toBe(true);
    expect(cmdline.join(' ')).not.toContain('tsx');
    // The signer child runs the bundle's own entry point.
    const children = execFileSync('ps', ['-o', 'args=', '--ppid', String(pid)], { encoding: 'utf8' });
    expect(children).toContain('dist/signer-main.js');

    const ready = await fetch(`${base}/api/v2/peatio/public/health/ready`);
    expect(ready.status).toBe(200);
    const version = (await (await fetch(`${base}/api/v2/peatio/public/version`)).json()) as {
      git_sha: string;
    };
    expect(version.git_sha).toMatch(/^[0-9a-f]{7}$/);

    // An order answered after the journal's commit is listed at once (read your writes) and reaches the tables
    // through the projector's worker thread, started from dist/projector-worker.js.
    const { kid, secret } = await apiKeyFor(db.pool, 'alice@example.com');
    const client = new SignedApiClient(base, kid, secret);
    const placed = (await client.call('POST', '/market/orders', {
      market: 'ethbtc',
      side: 'buy',
      ord_type: 'limit',
      price: '0.01',
      volume: '0.01',
    })) as { id: number; state: string };
    expect(placed.state).toBe('wait');
    const listed = (await client.call('GET', '/market/orders?state=wait')) as { id: number }[];
    expect(listed.map((o) => o.id)).toContain(placed.id);
    for (let i = 0; i < 100; i++) {
      const stored = await db.pool.query('select 1 from orders where id = $1', [placed.id]);
      if (stored.rowCount === 1) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await db.pool.query('select 1 from orders where id = $1', [placed.id])).rowCount).toBe(1);

    // A deposit address is derived from the xpub the signer child published.
    const address = (await client.call('GET', '/account/deposit_address/trx?blockchain_key=tron-sim')) as {
      address: string;
    };
    expect(address.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
  });
});
