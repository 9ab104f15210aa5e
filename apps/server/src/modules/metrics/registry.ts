import { statfs } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Core } from '../../core/index.ts';
import type { Sequencer } from '../../core/sequencer.ts';
import type { StreamHub } from '../ranger/hub.ts';
import type { Wallet } from '../wallet/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's Prometheus metrics (see createMetrics). */
    metrics: Registry;
  }
}

/** What the metrics read from: the app's parts. */
export interface MetricsSources {
  app: FastifyInstance;
  db: pg.Pool;
  core: Core;
  hub: StreamHub;
  wallet: Wallet;
  /** The data folder, whose free space is reported (absent: not reported). */
  dataDir?: string;
  /** Whether new orders and withdrawals are refused for a nearly full disk. */
  disk?: { low: boolean };
}

/** How long a scrape waits for a value read from the database before it leaves the series out. */
const DATABASE_READ_LIMIT_MS = 1_000;

/**
 * Reads for gauges that must not fail a scrape: `read` resolves with undefined when the database fails, or does
 * not answer within DATABASE_READ_LIMIT_MS (the series is then absent from this scrape, not an error). A read
 * under way is shared, not started again: by the gauges of one scrape, and by the next scrape while the database
 * is stalled, so a stalled database does not collect queries.
 */
function boundedRead<T>(query: () => Promise<T>): () => Promise<T | undefined> {
  let running: Promise<T | undefined> | undefined;
  return () => {
    running ??= query()
      .catch(() => undefined)
      .finally(() => {
        running = undefined;
      });
    const read = running;
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), DATABASE_READ_LIMIT_MS);
    });
    return Promise.race([read, limit]).finally(() => clearTimeout(timer));
  };
}

/**
 * The Prometheus metrics of one process (prom-client): HTTP requests by route, the core's batch sizes, commit
 * latency and queue depth, websocket clients and clients dropped as too slow, the chains' heights, webhook
 * deliveries failing, withdrawals waiting, and Node's own (CPU, memory, event-loop lag). Values read from the
 * database are read when Prometheus scrapes, not on any request path.
 */
export function createMetrics(sources: MetricsSources): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const { app, db, core, hub, wallet } = sources;

  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method and route pattern',
    labelNames: ['method', 'route'],
    // Up to 30 s: during an incident the slow answers are the ones to see (a request waits at most about that).
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, never the raw URL: labels stay few whatever clients send.
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    latency.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });

  const sequencer = 'onTimed' in core.sequencer ? (core.sequencer as Sequencer) : undefined;
  if (sequencer) {
    const batchSize = new Histogram({
      name: 'exchange_core_batch_commands',
      help: 'Commands per committed batch',
      buckets: [1, 2, 5, 10, 50, 100, 500, 1000, 5000],
      registers: [registry],
    });
    const commit = new Histogram({
      name: 'exchange_core_commit_seconds',
      help: 'From the start of a batch write to its durable commit',
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers: [registry],
    });
    sequencer.onTimed(({ commands, commitMs }) => {
      batchSize.observe(commands);
      commit.observe(commitMs / 1000);
    });
    new Gauge({
      name: 'exchange_core_queue_depth',
      help: 'Commands waiting for the next batch',
      registers: [registry],
      collect() {
        this.set(sequencer.queueDepth);
      },
    });
  }
  new Gauge({
    name: 'exchange_core_term',
    help: 'The core term this process last saw (raised at each failover)',
    registers: [registry],
    collect() {
      this.set(core.sequencer.coreTerm);
    },
  });

  new Gauge({
    name: 'exchange_core_available',
    help: 'Whether this process can reach a core that takes commands (1) or not (0: reloading, NATS lost)',
    registers: [registry],
    collect() {
      this.set(core.sequencer.available ? 1 : 0);
    },
  });
  new Gauge({
    name: 'exchange_core_active',
    help: 'Whether this process runs the active core (1) or follows it as a replica (0)',
    registers: [registry],
    collect() {
      this.set(sequencer ? 1 : 0);
    },
  });
  new Gauge({
    name: 'exchange_core_committed_batch',
    help: 'The last batch this process committed (active core) or applied (replica)',
    registers: [registry],
    collect() {
      this.set(core.sequencer.committedSeq);
    },
  });
  new Gauge({
    name: 'exchange_db_pool_connections',
    help: "This process's database pool: connections open, idle, and callers waiting for one",
    labelNames: ['state'],
    registers: [registry],
    collect() {
      this.set({ state: 'total' }, db.totalCount);
      this.set({ state: 'idle' }, db.idleCount);
      this.set({ state: 'waiting' }, db.waitingCount);
    },
  });
  const databaseAnswers = boundedRead(() => db.query('select 1'));
  new Gauge({
    name: 'exchange_database_up',
    help: `Whether the database answered a query within ${DATABASE_READ_LIMIT_MS} ms at this scrape`,
    registers: [registry],
    async collect() {
      this.set((await databaseAnswers()) ? 1 : 0);
    },
  });
  const disk = sources.disk;
  if (disk)
    new Gauge({
      name: 'exchange_disk_low',
      help: 'Whether new orders and withdrawals are refused because DATA_DIR has less free space than DISK_MIN_FREE_MB',
      registers: [registry],
      collect() {
        this.set(disk.low ? 1 : 0);
      },
    });
  if (sources.dataDir) {
    const dataDir = sources.dataDir;
    new Gauge({
      name: 'exchange_disk_free_bytes',
      help: 'Free space for this process on the data folder (DATA_DIR) file system',
      registers: [registry],
      async collect() {
        this.reset();
        const stats = await statfs(dataDir).catch(() => undefined);
        if (stats) this.set(stats.bavail * stats.bsize);
      },
    });
  }

  new Gauge({
    name: 'exchange_ws_clients',
    help: 'Open websocket connections, subscribed to a stream or not',
    registers: [registry],
    collect() {
      this.set(hub.connectionCount());
    },
  });
  new Gauge({
    name: 'exchange_ws_subscribed_clients',
    help: 'Websocket connections subscribed to at least one stream',
    registers: [registry],
    collect() {
      this.set(hub.subscribedCount());
    },
  });
  new Counter({
    name: 'exchange_ws_dropped_clients_total',
    help: 'Websocket clients closed for not keeping up',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(hub.dropped);
    },
  });
  new Gauge({
    name: 'exchange_chain_height',
    help: 'The newest block height each network watcher has seen',
    labelNames: ['network'],
    registers: [registry],
    collect() {
      for (const network of wallet.chains.all()) {
        const height = wallet.latestHeight(network.key);
        if (height !== undefined) this.set({ network: network.key }, height);
      }
    },
  });
  new Gauge({
    name: 'exchange_chain_watcher_lag_seconds',
    help: "Seconds since each network's deposit watcher last finished a pass (grows while a node is stuck)",
    labelNames: ['network'],
    registers: [registry],
    collect() {
      for (const network of wallet.chains.all()) {
        const lag = wallet.watcherLagSeconds(network.key);
        if (lag !== undefined) this.set({ network: network.key }, lag);
      }
    },
  });
  // Read from the database: a scrape during an outage leaves these out (exchange_database_up says why).
  const failingWebhooks = boundedRead(() =>
    db.query<{ provider: string; n: number }>(
      `select 'kyc' as provider, count(*)::int as n from kyc_sim_webhooks where delivered_at is null and attempts > 0
       union all select 'card', count(*)::int from cardsim_webhooks where delivered_at is null and attempts > 0`,
    ),
  );
  const mailQueue = boundedRead(() =>
    db.query<{ queued: number; dead: number }>(
      `select count(*) filter (where queued)::int as queued,
              count(*) filter (where dead_at > now() - interval '1 day')::int as dead
         from mail_outbox where queued or dead_at is not null`,
    ),
  );
  const waitingWithdrawals = boundedRead(() =>
    db.query<{ state: string; n: number }>(
      `select state, count(*)::int as n from withdrawals
       where state in ('prepared', 'under_review', 'accepted', 'processing', 'confirming', 'errored') group by state`,
    ),
  );
  new Gauge({
    name: 'exchange_webhook_deliveries_failing',
    help: 'Provider webhooks not yet delivered after at least one failed attempt',
    labelNames: ['provider'],
    registers: [registry],
    async collect() {
      this.reset();
      const rows = await failingWebhooks();
      for (const r of rows?.rows ?? []) this.set({ provider: r.provider }, r.n);
    },
  });
  new Gauge({
    name: 'exchange_mail_queued',
    help: 'Mail queued for the SMTP sender',
    registers: [registry],
    async collect() {
      this.reset();
      const row = (await mailQueue())?.rows[0];
      if (row) this.set(row.queued);
    },
  });
  new Gauge({
    name: 'exchange_mail_dead_letters',
    help: 'Mail the SMTP sender gave up on in the last day (dead letters)',
    registers: [registry],
    async collect() {
      this.reset();
      const row = (await mailQueue())?.rows[0];
      if (row) this.set(row.dead);
    },
  });
  new Gauge({
    name: 'exchange_withdrawals_waiting',
    help: 'Withdrawals not yet final, by state',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      this.reset();
      const rows = await waitingWithdrawals();
      for (const r of rows?.rows ?? []) this.set({ state: r.state }, r.n);
    },
  });
  return registry;
}

/**
 * `GET /metrics` on a port of its own (METRICS_PORT), for a Prometheus server on the operators' network; it
 * serves nothing else. Bind it to loopback or a private address: it is not behind any login.
 */
export async function serveMetrics(registry: Registry, port: number, host: string) {
  const { createServer } = await import('node:http');
  const server = createServer(async (req, res) => {
    if (req.method !== 'GET' || req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    try {
      const body = await registry.metrics();
      res.writeHead(200, { 'content-type': registry.contentType }).end(body);
    } catch {
      res.writeHead(500).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return server;
}
