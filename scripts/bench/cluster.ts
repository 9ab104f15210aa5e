import { rm } from 'node:fs/promises';
import { loadServerKeys } from '@exchange/server/bench';
import { buildServer } from '@exchange/server/build';
import { RemoteSequencer, serverSetup, startNats, startServerProcess } from '@exchange/server/harness';
import { connect } from 'nats';
import type pg from 'pg';
import { startBenchApp } from './bench-app.ts';
import { type LoadResult, load } from './load.ts';
import { printTable, rate } from './stats.ts';
import { benchTrader } from './trader.ts';

const CONNECTIONS = 128;
const SECONDS = 8;

/** The bench trader of one deployment (its server secret is the database's). */
async function trader(pool: pg.Pool) {
  const keys = await loadServerKeys(pool, undefined);
  const { user, apiKeys } = await benchTrader(pool, keys, {
    uid: 'IDBENCHCL001',
    email: 'cluster-bench@example.com',
    passwordDigest: 'x',
  });
  return { user: Number(user), apiKeys };
}

/** The same durable order placement as the one-process bench: a resting sell far from the market per request. */
const orderLoad = (base: string, apiKeys: { kid: string; secret: string }[], connections = CONNECTIONS) =>
  load({
    url: `${base}/api/v2/peatio/market/orders`,
    method: 'POST',
    connections,
    duration: SECONDS,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ market: 'ethbtc', side: 'sell', volume: '0.001', price: '9', ord_type: 'limit' }),
    apiKeys,
  });

const credit = (user: number) =>
  ({ type: 'Credit', user, currency: 'eth', amount: 10n ** 26n, kind: 'deposit' }) as const;

/**
 * The split deployment against the one process, from one run: orders per second and latency through
 * api → NATS → core (one api process, one core, a standby), then the standby's takeover after a SIGKILL.
 */
export async function clusterBench(fresh: () => Promise<{ url: string; pool: pg.Pool }>) {
  // One process, in this process (as the http section does).
  const one = await fresh();
  const { app, deps, base: oneBase } = await startBenchApp(one.pool);
  const oneTrader = await trader(one.pool);
  await deps.core.sequencer.submit(credit(oneTrader.user));
  const single = await orderLoad(oneBase, oneTrader.apiKeys);
  await app.close();
  await deps.core.sequencer.drain();
  await one.pool.end();

  // Split: a core, a standby core and an api process, over a nats-server of its own; each runs the server as
  // `npm start` does (apps/server/dist), like the one process above (bench-app.ts).
  if (process.env.BENCH_SERVER !== 'source') await buildServer();
  const split = await fresh();
  const nats = await startNats();
  const dirs: string[] = [];
  const proc = async (role: string, readyText?: string) => {
    const setup = await serverSetup(`exchange-bench-${role}-`, {
      ROLE: role,
      DATABASE_URL: split.url,
      NATS_URL: nats.url,
      SEED_DEMO: 'false',
      RATE_LIMITS: 'false',
      LOG_LEVEL: 'silent',
    });
    dirs.push(setup.dataDir);
    const from = process.env.BENCH_SERVER === 'source' ? 'source' : 'built';
    return { ...(await startServerProcess(setup.env, 60_000, readyText, from)), base: setup.base };
  };
  const core = await proc('core');
  const [standby, api] = await Promise.all([proc('core', 'standby:'), proc('api')]);
  const splitTrader = await trader(split.pool);
  const nc = await connect({ servers: nats.url });
  await new RemoteSequencer(nc).submit(credit(splitTrader.user));
  const viaNats = await orderLoad(api.base, splitTrader.apiKeys);
  // A second api process: the same connections, half on each, each half signing with its own keys (a nonce is
  // per key, so two load generators never sign the same one).
  const api2 = await proc('api');
  const half = splitTrader.apiKeys.length / 2;
  const [first, second] = await Promise.all([
    orderLoad(api.base, splitTrader.apiKeys.slice(0, half), CONNECTIONS / 2),
    orderLoad(api2.base, splitTrader.apiKeys.slice(half), CONNECTIONS / 2),
  ]);
  const viaTwo = {
    requestsPerSecond: first.requestsPerSecond + second.requestsPerSecond,
    p50: Math.max(first.p50, second.p50),
    p99: Math.max(first.p99, second.p99),
    statusCodes: {
      '201': { count: (first.statusCodes['201']?.count ?? 0) + (second.statusCodes['201']?.count ?? 0) },
    },
    total: first.total + second.total,
  };
  const stored = (await split.pool.query('select count(*)::int as n from orders')).rows[0].n as number;

  // The takeover under load: the active core SIGKILLed two seconds into an order load through both api processes.
  const underLoad = Promise.all([
    orderLoad(api.base, splitTrader.apiKeys.slice(0, half), CONNECTIONS / 2),
    orderLoad(api2.base, splitTrader.apiKeys.slice(half), CONNECTIONS / 2),
  ]);
  await new Promise((r) => setTimeout(r, 2_000));
  core.child.kill('SIGKILL');
  const killed = performance.now();
  for (;;) {
    const ok = await fetch(`${standby.base}/api/v2/peatio/public/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  const takeoverMs = Math.round(performance.now() - killed);
  const during = await underLoad;
  const duringTakeover = {
    answered: during.reduce((n, r) => n + (r.statusCodes['201']?.count ?? 0), 0),
    total: during.reduce((n, r) => n + r.total, 0),
  };
  for (const p of [standby, api, api2]) {
    p.child.kill('SIGTERM');
    await p.exited;
  }
  await nc.close();
  await nats.stop();
  await split.pool.end();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });

  const answered = (r: Pick<LoadResult, 'statusCodes' | 'total'>) =>
    `${r.statusCodes['201']?.count ?? 0}/${r.total}`;
  printTable(
    `Orders through one process and through the split deployment (POST /market/orders, API key, durable ack, ${CONNECTIONS} connections, ${SECONDS} s)`,
    ['deployment', 'orders/s', 'p50 ms', 'p99 ms', '201 answers'],
    [
      ['one process (api + core)', rate(single.requestsPerSecond), single.p50, single.p99, answered(single)],
      [
        'split: api process → NATS → core process',
        rate(viaNats.requestsPerSecond),
        viaNats.p50,
        viaNats.p99,
        answered(viaNats),
      ],
      [
        'split: two api processes → NATS → core process (p50/p99: the slower)',
        rate(viaTwo.requestsPerSecond),
        viaTwo.p50,
        viaTwo.p99,
        answered(viaTwo),
      ],
      ['Peatio orders (published figure, not run here)', '60-125', '-', '-', '-'],
    ],
  );
  console.log(
    `split: orders stored ${stored}; under an order load through both api processes (${CONNECTIONS} connections), the standby core answered ready ${takeoverMs} ms after the active one was SIGKILLed; ${duringTakeover.answered}/${duringTakeover.total} orders of that load answered 201`,
  );
  return { single, viaNats, viaTwo, takeoverMs, duringTakeover };
}
