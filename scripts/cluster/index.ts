import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { debianProgram, startHaproxy } from './haproxy.ts';

/**
 * `npm run cluster`: the split deployment on this machine. Against the local PostgreSQL (a database of its own)
 * and a nats-server with JetStream that it starts itself: two core processes (one active, one standby), two api,
 * two ws, two workers (each job runs in one, the other takes it over), the signer, and HAProxy in front. Every
 * port follows CLUSTER_PORT (the balancer's; 3000 by default). It prints how to kill the active core.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The server's entry, through the package's declared entry (not a path into its folder). */
const MAIN = createRequire(import.meta.url).resolve('@exchange/server/main');
const DATA = path.join(ROOT, 'data/cluster');
const PORT = Number(process.env.CLUSTER_PORT ?? 3000);
/** Every other port is an offset from the balancer's. */
const at = (offset: number) => PORT + offset;
const NATS_PORT = at(1233);
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/exchange_cluster';

const children: { name: string; child: ChildProcess }[] = [];

async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unusual database name in DATABASE_URL: ${name}`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  const exists = await client.query('select 1 from pg_database where datname = $1', [name]);
  if (exists.rowCount === 0) await client.query(`create database ${name}`);
  await client.end();
}

function run(name: string, command: string, args: string[], env: Record<string, string> = {}): ChildProcess {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n'))
      if (line.trim() && !line.startsWith('{')) console.log(`[${name}] ${line}`);
  };
  child.stdout?.on('data', prefix);
  child.stderr?.on('data', prefix);
  child.on('exit', (code, signal) => console.log(`[${name}] exited (${signal ?? code})`));
  children.push({ name, child });
  return child;
}

/** The signer's port and the token every caller signs its requests with (fresh per cluster run). */
const SIGNER_PORT = at(141);
const SIGNER_TOKEN = randomBytes(32).toString('base64url');

function app(name: string, role: string, port: number, extra: Record<string, string> = {}): ChildProcess {
  return run(name, process.execPath, ['--import', 'tsx', MAIN], {
    ROLE: role,
    PORT: String(port),
    SIGNER_URL: `http://127.0.0.1:${SIGNER_PORT}`,
    SIGNER_TOKEN,
    SIGNER_PORT: String(SIGNER_PORT),
    DATABASE_URL,
    NATS_URL: `nats://127.0.0.1:${NATS_PORT}`,
    API_URL: `http://127.0.0.1:${PORT}`,
    PUBLIC_URL: `http://localhost:${PORT}`,
    LOG_LEVEL: 'warn',
    ...extra,
  });
}

async function ready(port: number): Promise<{ core?: { active: boolean; term: number } } | undefined> {
  return fetch(`http://127.0.0.1:${port}/api/v2/peatio/public/health/ready`)
    .then(async (r) =>
      r.ok ? ((await r.json()) as { core?: { active: boolean; term: number } }) : undefined,
    )
    .catch(() => undefined);
}

async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function main(): Promise<void> {
  const nats = debianProgram('nats-server');
  await ensureDatabase(DATABASE_URL);
  mkdirSync(path.join(DATA, 'nats'), { recursive: true });
  run('nats', nats, ['-a', '127.0.0.1', '-p', String(NATS_PORT), '-js', '-sd', path.join(DATA, 'nats')]);
  const cores = { core1: at(101), core2: at(102) };
  const apis = { api1: at(111), api2: at(112) };
  const gateways = { ws1: at(121), ws2: at(122) };
  const workers = { worker1: at(131), worker2: at(132) };
  // The first core migrates and seeds; the others start once it serves.
  app('core1', 'core', cores.core1);
  await waitFor(async () => (await ready(cores.core1)) !== undefined, 'the first core');
  // The signer holds the seed: a process of its own, alone with it.
  // Its seed and the key that opens it live in a folder of its own (development: made on the first start).
  app('signer', 'signer', SIGNER_PORT, { DATA_DIR: path.join(DATA, 'signer') });
  await waitFor(
    () =>
      fetch(`http://127.0.0.1:${SIGNER_PORT}/v1/health`)
        .then((r) => r.ok)
        .catch(() => false),
    'the signer',
  );
  app('core2', 'core', cores.core2);
  for (const [name, port] of Object.entries(apis)) app(name, 'api', port);
  for (const [name, port] of Object.entries(gateways)) app(name, 'ws', port);
  for (const [name, port] of Object.entries(workers)) app(name, 'worker', port);
  const backends = (ports: Record<string, number>) =>
    Object.entries(ports).map(([name, port]) => ({ name, host: '127.0.0.1', port }));
  const balancer = await startHaproxy(
    { host: '127.0.0.1', port: PORT, api: backends(apis), ws: backends(gateways) },
    path.join(DATA, 'haproxy'),
  );
  for (const port of [...Object.values(apis), ...Object.values(gateways)])
    await waitFor(async () => (await ready(port)) !== undefined, `the process on port ${port}`);

  const pid = (name: string) => children.find((c) => c.name === name)?.child.pid;
  console.log(`
The cluster is running on http://localhost:${PORT} (HAProxy over api ${Object.values(apis).join(', ')} and ws ${Object.values(gateways).join(', ')}; its configuration: ${balancer.config}).
Database ${DATABASE_URL}, NATS nats://127.0.0.1:${NATS_PORT} (JetStream in ${path.join(DATA, 'nats')}).
  active core: core1, pid ${pid('core1')}, port ${cores.core1}; standby: core2, pid ${pid('core2')}, port ${cores.core2}
  api: pids ${pid('api1')}, ${pid('api2')}; ws: pids ${pid('ws1')}, ${pid('ws2')}; workers: pids ${pid('worker1')}, ${pid('worker2')}
Kill the active core and watch the standby take over (it logs "took over" and its ready route answers):
  kill -9 ${pid('core1')}; curl -s localhost:${cores.core2}/api/v2/peatio/public/health/ready
Ctrl-C stops everything.`);
  const announced = new Set<string>();
  const watch = setInterval(async () => {
    for (const [name, port] of Object.entries(cores)) {
      const state = await ready(port);
      if (state?.core?.active && !announced.has(`${name}:${state.core.term}`)) {
        announced.add(`${name}:${state.core.term}`);
        console.log(`${name} is the active core (term ${state.core.term})`);
      }
    }
  }, 500);
  const stop = () => {
    clearInterval(watch);
    void balancer.stop();
    for (const { child } of children) child.kill('SIGTERM');
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  for (const { child } of children) child.kill('SIGTERM');
  process.exit(1);
});
