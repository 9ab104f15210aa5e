import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../src/core/audit.ts';
import { createPool } from '../../src/db/pool.ts';
import { type ServerProcess, serverSetup, startServerProcess } from '../support/process.ts';

/**
 * `kill -9` of the embedded PostgreSQL under load: the app must stay up, answer 503
 * `server.database_unavailable` meanwhile, start the server again, reload its core from the database and trade
 * on, with nothing acknowledged lost and the ledger balanced.
 */
const PASSWORD = 'Dbkill-pass-2026!';
const UNAVAILABLE = { errors: ['server.database_unavailable'] };
let dataDir: string;
let env: Record<string, string>;
let base: string;
let dbUrl: string;
let server: ServerProcess | undefined;
let blocker: net.Server | undefined;
let locker: pg.Client | undefined;
let loading = false;

beforeAll(async () => {
  ({ dataDir, env, base } = await serverSetup('exchange-dbkill-', {
    RATE_LIMITS: 'false',
    DEMO_PASSWORD: PASSWORD,
  }));
});

afterAll(async () => {
  // After a failure midway: no more load, no lock or held port that would keep the app from stopping.
  loading = false;
  await locker?.end().catch(() => {});
  blocker?.close();
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  // An app that had to give up stopping leaves its server behind; it is ours, so it goes too.
  const postmaster = await readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').catch(() => '');
  const pid = Number.parseInt(postmaster.split('\n')[0] ?? '', 10);
  const cmdline = pid > 0 ? await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '') : '';
  if (cmdline.includes(dataDir)) process.kill(pid, 'SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A direct connection to the embedded database, which survives (as an error) the server dying under it. */
async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: dbUrl });
  client.on('error', () => {});
  await client.connect();
  return client;
}

async function sql(text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = await connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

interface Answer {
  status: number;
  body: unknown;
}

/** A request that reports a dropped connection as status 0 instead of throwing: the app crashing is a result. */
async function call(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
  try {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null } as Answer;
  } catch {
    return { status: 0, body: null } as Answer;
  }
}

interface Session {
  cookie: string;
  csrf: string;
}

/** Signs a demo user in with password and the emailed code, as the web app does. */
async function login(email: string): Promise<Session> {
  const sent = await call('POST', '/api/v2/barong/identity/sessions/resent_otp', {
    session_type: 'email',
    email,
    password: PASSWORD,
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  // Read as a developer does: the dev outbox API shows the code once (the table keeps none).
  const outbox = await fetch(`${base}/api/v2/barong/dev/outbox?to=${encodeURIComponent(email)}&limit=1`);
  const code = ((await outbox.json()) as { secret: string | null }[])[0]?.secret;
  const res = await fetch(`${base}/api/v2/barong/identity/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      session_type: 'email',
      email,
      password: PASSWORD,
      code,
      authentication_state: 'web',
    }),
  });
  expect(res.status).toBe(200);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { cookie, csrf: ((await res.json()) as { csrf_token: string }).csrf_token };
}

/** A small limit order at one price, so buys and sells of the two users trade with each other. */
const place = (s: Session, side: 'buy' | 'sell') =>
  call(
    'POST',
    '/api/v2/peatio/market/orders',
    { market: 'ethbtc', side, volume: '0.01', price: '0.001', ord_type: 'limit' },
    { cookie: s.cookie, 'x-csrf-token': s.csrf },
  );

const health = (kind: 'alive' | 'ready') => call('GET', `/api/v2/peatio/public/health/${kind}`);

/** Polls until `check` holds; the bound only turns a hang into a readable failure. */
async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    // The app dying is the failure this test exists for: say so at once, with its last words.
    if (server && server.child.exitCode !== null)
      throw new Error(
        `the app exited (code ${server.child.exitCode}) waiting for ${what}\n${server.output()}`,
      );
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${server?.output() ?? ''}`);
    await sleep(20);
  }
}

/**
 * Holds the database's port while the test looks at the outage, so the app's restart of the server cannot
 * succeed before the assertions ran (the restart is retried). Connections are accepted and closed at once, as
 * a port with nothing behind it would refuse them, so no request hangs.
 */
async function holdPort(port: number): Promise<net.Server> {
  for (let attempt = 0; ; attempt++) {
    const held = net.createServer((socket) => socket.destroy());
    const error = await new Promise<Error | undefined>((resolve) => {
      held.once('error', resolve);
      held.listen(port, '127.0.0.1', () => resolve(undefined));
    });
    if (!error) return held;
    if (attempt > 500) throw new Error(`could not hold port ${port}: ${error.message}`);
    await sleep(2);
  }
}

describe('the embedded database killed under load', () => {
  it('keeps the app up, answers 503 meanwhile, restarts the database and trades on', async () => {
    server = await startServerProcess(env);
    const pgPassword = (await readFile(path.join(dataDir, '.pg-password'), 'utf8')).trim();
    dbUrl = `postgresql://postgres:${pgPassword}@127.0.0.1:${env.EMBEDDED_PG_PORT}/exchange`;
    expect((await health('ready')).status).toBe(200);
    const alice = await login('alice@example.com');
    const bob = await login('bob@example.com');
    expect((await place(alice, 'buy')).status).toBe(201);

    // Load: two users keep placing crossing orders; every answer is kept.
    const answers: Answer[] = [];
    loading = true;
    const loops = Array.from({ length: 6 }, (_, i) =>
      (async () => {
        while (loading) {
          const answer = await place(i % 2 === 0 ? alice : bob, i % 2 === 0 ? 'buy' : 'sell');
          answers.push(answer);
          // While the database is down the answers come at once; do not spin the shared machine.
          if (answer.status !== 201) await sleep(20);
        }
      })(),
    );
    await until('orders under load', () => answers.filter((a) => a.status === 201).length >= 30);

    // A batch in flight when the server dies: the test locks the orders table, so the core's next batch waits
    // on it inside PostgreSQL until the kill ends both connections. Only the core writes orders, so a wait for
    // the write lock on orders is a batch (reads ask for a weaker one). Told by the lock, not by the query text:
    // a statement waiting for its locks while it is parsed still shows its connection's previous query.
    locker = await connect();
    await locker.query('begin');
    await locker.query('lock table orders in access exclusive mode');
    await until('a batch waiting on the lock', async () => {
      const waiting = await (locker as pg.Client).query(
        `select count(*)::int as n from pg_locks l join pg_stat_activity a on a.pid = l.pid
         where a.application_name = 'exchange' and l.relation = 'orders'::regclass and not l.granted
           and l.mode = 'RowExclusiveLock'`,
      );
      return waiting.rows[0].n > 0;
    });
    const before = answers.length;

    const lockFile = path.join(dataDir, 'pg', 'postmaster.pid');
    const postmaster = Number.parseInt((await readFile(lockFile, 'utf8')).split('\n')[0] ?? '', 10);
    process.kill(postmaster, 'SIGKILL');
    blocker = await holdPort(Number(env.EMBEDDED_PG_PORT));

    await until('the app to notice', () => server?.output().includes('exited unexpectedly') ?? false);
    // The orders waiting in the killed batch are refused as unavailable: not acknowledged, not a 500.
    await until('the in-flight orders to be refused', () =>
      answers.slice(before).some((a) => a.status === 503),
    );
    expect(await place(alice, 'buy')).toEqual({ status: 503, body: UNAVAILABLE });
    expect(await health('ready')).toEqual({ status: 503, body: UNAVAILABLE });
    expect(await health('alive')).toEqual({ status: 503, body: UNAVAILABLE });
    expect(server.child.exitCode).toBeNull();

    // The port is free again: the app's next attempt starts the server, and the core reloads itself.
    await new Promise((resolve) => blocker?.close(resolve));
    blocker = undefined;
    await until('ready again', async () => (await health('ready')).status === 200);
    expect(server.output()).toContain('embedded PostgreSQL restarted');
    expect(server.output()).toContain('exchange core reloaded from the database');
    const after = answers.filter((a) => a.status === 201).length;
    await until(
      'orders after the restart',
      () => answers.filter((a) => a.status === 201).length >= after + 30,
    );
    loading = false;
    await Promise.all(loops);

    // Every answer was an acknowledgement or "database unavailable": no 500, no dropped connection.
    const others = answers.filter((a) => a.status !== 201 && a.status !== 503);
    expect(others).toEqual([]);
    expect(
      answers.filter((a) => a.status === 503 && JSON.stringify(a.body) !== JSON.stringify(UNAVAILABLE)),
    ).toEqual([]);

    // A new order is placed and stored; so is every order that was acknowledged.
    const placed = await place(bob, 'sell');
    expect(placed.status).toBe(201);
    const acked = [...answers, placed]
      .filter((a) => a.status === 201)
      .map((a) => Number((a.body as { id: number }).id));
    // Orders are answered once in the journal: the tables follow within moments.
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
      const at = (await sql('select e.batch_seq, p.projected_seq from engine_state e, core_projection p'))
        .rows[0];
      if (at.batch_seq === at.projected_seq) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const stored = await sql('select count(*)::int as n from orders where id = any($1::bigint[])', [acked]);
    expect(stored.rows[0].n).toBe(new Set(acked).size);
    const trades = await sql('select count(*)::int as n from trades');
    expect(trades.rows[0].n).toBeGreaterThan(0);

    // The ledger balances, as `npm run audit` checks it, and every lock is an open order's hold.
    const pool = createPool(dbUrl, 2);
    try {
      expect(await auditLedger(pool)).toEqual([]);
      const orphanLocks = await pool.query(
        `with held as (
           select o.user_id, case when o.side = 'buy' then m.quote_unit else m.base_unit end as currency_id,
             sum(o.locked) as amount
           from orders o join markets m on m.id = o.market_id where o.state in ('wait', 'pending') group by 1, 2)
         select b.user_id, b.currency_id from balances b left join held h using (user_id, currency_id)
         where b.locked <> coalesce(h.amount, 0)`,
      );
      expect(orphanLocks.rows).toEqual([]);
    } finally {
      await pool.end();
    }

    // The restarted server is still the app's own: a normal stop takes it down cleanly.
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(existsSync(lockFile)).toBe(false);
  }, 120_000);
});
