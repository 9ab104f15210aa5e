import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBuildAccount } from '../../build.mjs';
import { SignedApiClient } from '../../src/demo/api-client.ts';
import { apiKeyFor } from '../support/api-key.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { BUILT_CLI, type ServerProcess, serverSetup, startServerProcess } from '../support/process.ts';
import { REAL_PROVIDERS } from '../support/real-providers.ts';

// `npm start` runs the server built into plain JavaScript (apps/server/build.mjs): the app, its signer child and
// the projector's worker thread, each from the bundle, with no TypeScript loader anywhere.
const SERVER = fileURLToPath(new URL('../../', import.meta.url));
let db: TestDatabase;
let server: ServerProcess;
let base: string;
let dataDir: string;
let metafile: Metafile;

beforeAll(async () => {
  // The build `npm run build:server` makes (the global setup made it current), with esbuild's account of it (what
  // each output holds and imports), which the build writes beside it.
  const account = await readBuildAccount();
  if (!account) throw new Error('apps/server/dist has no build account: the global setup builds it');
  metafile = account;
  db = await createTestDatabase();
  const setup = await serverSetup('exchange-built-', { DATABASE_URL: db.url });
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

    // The one-process default mounts the travel-rule network's simulator from its own chunk: it answers a
    // question about an unknown deposit (no record, no provider known for the sender).
    const asked = await fetch(`${base}/travel-rule-sim/incoming`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ network: 'tron-sim', txid: 'built-1', address: address.address, from: null }),
    });
    expect([asked.status, await asked.json()]).toEqual([200, { status: 'none', provider_id: null }]);
    // And the SMS simulator (SMS_PROVIDER=simulator by default): its phone inbox wants the account's credentials.
    const inbox = await fetch(`${base}/sms-sim/inbox`);
    expect([inbox.status, ((await inbox.json()) as { code: number }).code]).toEqual([401, 20003]);
  });
});

/** A source file of the providers' simulators, by its real path or through node_modules. */
const SIMULATOR_SOURCE = /(packages|@exchange)\/provider-sims\//;

/** The outputs (`dist/…`) that hold a source file of the providers' simulators (packages/provider-sims). */
const simulatorOutputs = () =>
  Object.entries(metafile.outputs)
    .filter(([, output]) => Object.keys(output.inputs).some((input) => SIMULATOR_SOURCE.test(input)))
    .map(([name]) => name);

/** The outputs a start loads before any dynamic import runs: the entry and what it imports statically. */
function staticallyLoaded(entry: string): Set<string> {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const name = queue.pop() as string;
    if (seen.has(name)) continue;
    seen.add(name);
    for (const edge of metafile.outputs[name]?.imports ?? [])
      if (edge.kind === 'import-statement' && !edge.external) queue.push(edge.path);
  }
  return seen;
}

describe('the simulators apart from the product (issue 34, item 4)', () => {
  it('bundles the simulators in chunks of their own, reached only by a dynamic import', () => {
    const sims = simulatorOutputs();
    // KYC, card issuer, bank and travel rule: at least one chunk holds them, so the one-process default still has them.
    expect(sims.length).toBeGreaterThan(0);
    for (const entry of ['dist/main.js', 'dist/signer-main.js', 'dist/projector-worker.js']) {
      const loaded = staticallyLoaded(entry);
      expect(loaded.has(entry)).toBe(true);
      for (const sim of sims) expect(loaded.has(sim), `${entry} loads ${sim} at start`).toBe(false);
    }
    const dynamicTargets = new Set(
      Object.values(metafile.outputs).flatMap((o) =>
        o.imports.filter((edge) => edge.kind === 'dynamic-import').map((edge) => edge.path),
      ),
    );
    // Each simulator's entry (kyc, card-issuer, bank, travel-rule, sms) is the target of a dynamic import.
    for (const provider of ['kyc', 'card-issuer', 'bank', 'travel-rule', 'sms']) {
      const entryChunk = Object.entries(metafile.outputs).find(([, o]) =>
        Object.keys(o.inputs).some(
          (input) => SIMULATOR_SOURCE.test(input) && input.endsWith(`/src/${provider}/index.ts`),
        ),
      )?.[0];
      expect(entryChunk, provider).toBeDefined();
      expect(dynamicTargets.has(entryChunk as string), provider).toBe(true);
    }
  });

  it('a start with the real providers configured loads no simulator module and makes no simulator table', async () => {
    // A database never migrated: the start makes the whole schema, as the owner, and none of it a simulator's.
    const realDb = await createTestDatabase({ empty: true });
    const recorder = await mkdtemp(path.join(tmpdir(), 'module-loads-'));
    const log = path.join(recorder, 'loaded.txt');
    // Every module Node loads, in the app, its signer child and its worker threads (they inherit `--import`).
    await writeFile(
      path.join(recorder, 'hooks.mjs'),
      [
        "import { appendFileSync } from 'node:fs';",
        'export async function load(url, context, next) {',
        "  appendFileSync(process.env.MODULE_LOAD_LOG, url + '\\n');",
        '  return next(url, context);',
        '}',
        '',
      ].join('\n'),
    );
    await writeFile(
      path.join(recorder, 'register.mjs'),
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(path.join(recorder, 'hooks.mjs')).href)});\n`,
    );
    const setup = await serverSetup('exchange-real-providers-', {
      DATABASE_URL: realDb.url,
      DATABASE_OWNER_URL: realDb.ownerUrl,
      MODULE_LOAD_LOG: log,
      ...REAL_PROVIDERS,
    });
    let real: ServerProcess | undefined;
    try {
      real = await startServerProcess(setup.env, 60_000, 'Exchange is running', 'built', [
        '--import',
        pathToFileURL(path.join(recorder, 'register.mjs')).href,
      ]);
      expect((await fetch(`${setup.base}/api/v2/peatio/public/health/ready`)).status).toBe(200);
      // Not mounted: the simulators' APIs are not there.
      for (const url of [
        '/kyc-sim/websdk',
        '/card-sim/v3/users/x',
        '/bank-sim/v1/incoming-transfers',
        '/sms-sim/inbox',
      ])
        expect((await fetch(`${setup.base}${url}`)).status, url).toBe(404);
      // The travel-rule network answers POSTs only: mounted, a malformed one would be a 400.
      const travelRule = await fetch(`${setup.base}/travel-rule-sim/incoming`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(travelRule.status).toBe(404);
      const loaded = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
      const distLoaded = loaded
        .filter((url) => url.startsWith(pathToFileURL(`${SERVER}dist/`).href))
        .map((url) => `dist/${url.slice(pathToFileURL(`${SERVER}dist/`).href.length)}`);
      // The recorder saw the start (the entry and its chunks), and no chunk of a simulator among them.
      expect(distLoaded).toContain('dist/main.js');
      expect(distLoaded).toContain('dist/signer-main.js');
      const sims = new Set(simulatorOutputs());
      expect(distLoaded.filter((file) => sims.has(file))).toEqual([]);
      expect(loaded.filter((url) => url.includes('provider-sims'))).toEqual([]);
      // The exchange's schema is there, and no table of a provider simulator, nor their migrations' record.
      const tables = (
        await realDb.pool.query<{ name: string }>(
          `select relname as name from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r'`,
        )
      ).rows.map((r) => r.name);
      expect(tables).toContain('schema_migrations');
      expect(
        tables.filter((name) => /^(kyc_sim_|cardsim_|banksim_|travel_rule_sim_|smssim_|sim_)/.test(name)),
      ).toEqual([]);
    } finally {
      if (real && real.child.exitCode === null) {
        real.child.kill('SIGTERM');
        await real.exited;
      }
      await realDb.drop();
      await rm(setup.dataDir, { recursive: true, force: true });
      await rm(recorder, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('the command line beside a built app on its embedded database', () => {
  // `npm start` runs dist/main.js; the command line must share that app's PostgreSQL, not stop it as a leftover.
  it("shares the running app's embedded PostgreSQL and leaves it running", async () => {
    const setup = await serverSetup('exchange-built-embedded-', { SIM_BLOCK_MS: '0' });
    let app: ServerProcess | undefined;
    try {
      app = await startServerProcess(setup.env, 90_000, 'Exchange is running', 'built');
      const postgresPid = async () =>
        (await readFile(path.join(setup.dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0];
      const before = await postgresPid();
      const cli = execFileSync(process.execPath, [BUILT_CLI, 'user', 'show', 'alice@example.com'], {
        cwd: SERVER,
        env: { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'warn', DATA_DIR: setup.dataDir },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(JSON.parse(cli)).toMatchObject({ email: 'alice@example.com' });
      expect(await postgresPid()).toBe(before);
      expect((await fetch(`${setup.base}/api/v2/peatio/public/health/ready`)).status).toBe(200);
    } finally {
      if (app && app.child.exitCode === null) {
        app.child.kill('SIGTERM');
        await app.exited;
      }
      await rm(setup.dataDir, { recursive: true, force: true });
    }
  }, 150_000);
});
