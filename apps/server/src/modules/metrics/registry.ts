import { API } from '@exchange/shared';
import type { FastifyInstance, onSendHookHandler } from 'fastify';
import type { NatsConnection } from 'nats';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Core } from '../../core/index.ts';
import type { ReplicaSequencer } from '../../core/remote/replica.ts';
import type { Sequencer } from '../../core/sequencer.ts';
import type { StreamHub } from '../ranger/hub.ts';
import type { Wallet } from '../wallet/index.ts';
import { addOperationsMetrics, type OperationsSources } from './operations.ts';
import { RouteRequestMetrics } from './route-metrics.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's Prometheus metrics (see createMetrics). */
    metrics: Registry;
  }
}

/** Where orders are placed (their refusals are counted by code). */
const ORDER_ROUTE = `${API.peatio}/market/orders`;

/** What the metrics read from: the app's parts. */
export interface MetricsSources extends OperationsSources {
  app: FastifyInstance;
  core: Core;
  hub: StreamHub;
  wallet: Wallet;
  /** The NATS connection of a split deployment. */
  nats?: NatsConnection;
}

/** Follows a NATS connection's state for a gauge: up until it reports a disconnect, up again on reconnect. */
function connectionState(nc: NatsConnection): { up: boolean } {
  const state = { up: !nc.isClosed() };
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect') state.up = false;
      else if (status.type === 'reconnect') state.up = true;
    }
  })();
  return state;
}

/** How long a scrape waits for the replica's lag (a JetStream API call) before it leaves it out. */
const LAG_READ_LIMIT_MS = 1_000;

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

  // Requests by route and their latency, counted on a record bound to each route (see route-metrics.ts).
  const routeMetrics = new RouteRequestMetrics();
  routeMetrics.install(app);
  routeMetrics.register(registry);

  const refusals = new Counter({
    name: 'exchange_order_refusals_total',
    help: 'Orders refused, by error code (validation, funds, market rules, the disk, the core)',
    labelNames: ['code'],
    registers: [registry],
  });
  // Counted where orders are placed only: the routes are declared after this, and no other request pays for it.
  app.addHook('onRoute', (route) => {
    if (route.url !== ORDER_ROUTE || route.method !== 'POST') return;
    const count: onSendHookHandler = (_request, reply, payload, done) => {
      if (reply.statusCode >= 400 && typeof payload === 'string') {
        try {
          const codes = (JSON.parse(payload) as { errors?: unknown }).errors;
          if (Array.isArray(codes)) for (const code of codes) refusals.inc({ code: String(code) });
        } catch {
          // Not our envelope: nothing to count.
        }
      }
      done(null, payload);
    };
    route.onSend = [...(route.onSend ? [route.onSend].flat() : []), count];
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
    new Gauge({
      name: 'exchange_core_projection_lag_commands',
      help: 'Commands in the journal that the tables (orders, trades, balances, ledger) do not hold yet',
      registers: [registry],
      collect() {
        this.set(sequencer.tables.lagCommands);
      },
    });
    new Gauge({
      name: 'exchange_core_projected_batch',
      help: 'The last journal batch the tables hold',
      registers: [registry],
      collect() {
        this.set(sequencer.projectedSeq);
      },
    });
    const projection = new Histogram({
      name: 'exchange_core_projection_seconds',
      help: 'One write of the projector (the batches committed since its last write)',
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
      registers: [registry],
    });
    sequencer.onProjector((projector) =>
      projector.onTimed(({ writeMs }) => projection.observe(writeMs / 1000)),
    );
    new Gauge({
      name: 'exchange_core_replay_mismatches',
      help: 'Starts whose replay from a snapshot did not give the tables state (the core continued from the tables)',
      registers: [registry],
      collect() {
        this.set(sequencer.replayMismatches);
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
  const nats = sources.nats;
  if (nats) {
    const connection = connectionState(nats);
    new Gauge({
      name: 'exchange_nats_connected',
      help: 'Whether this process is connected to NATS (split deployment)',
      registers: [registry],
      collect() {
        this.set(connection.up && !nats.isClosed() ? 1 : 0);
      },
    });
  }
  const replica = 'pendingBatches' in core.sequencer ? (core.sequencer as ReplicaSequencer) : undefined;
  if (replica)
    new Gauge({
      name: 'exchange_replica_lag_batches',
      help: 'Committed batches the active core published that this replica has not applied yet',
      registers: [registry],
      async collect() {
        this.reset();
        let timer: NodeJS.Timeout | undefined;
        const lag = await Promise.race([
          replica.pendingBatches().catch(() => undefined),
          new Promise<undefined>((resolve) => {
            timer = setTimeout(() => resolve(undefined), LAG_READ_LIMIT_MS);
          }),
        ]).finally(() => clearTimeout(timer));
        if (lag !== undefined) this.set(lag);
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
  addOperationsMetrics(registry, sources);
  return registry;
}

/**
 * The metrics of a process still starting, or waiting as a standby core for the lease: Node's own, and that it
 * is not (yet) the active core. Served until the app's full metrics take over, so a standby is never a blind spot.
 */
export function startingMetrics(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const flag = (name: string, help: string, value: number) =>
    new Gauge({ name, help, registers: [registry] }).set(value);
  flag('exchange_core_active', 'Whether this process runs the active core (1) or not (0)', 0);
  flag('exchange_core_available', 'Whether this process can reach a core that takes commands', 0);
  flag(
    'exchange_starting',
    'Whether this process is starting, or waiting as a standby core for the lease',
    1,
  );
  return registry;
}

/**
 * `GET /metrics` on a port of its own (METRICS_PORT), for a Prometheus server on the operators' network; it
 * serves nothing else. Bind it to loopback or a private address: it is not behind any login. `registry` may be a
 * function, asked at each scrape (a process serves its starting metrics, then its full ones).
 */
export async function serveMetrics(registry: Registry | (() => Registry), port: number, host: string) {
  const { createServer } = await import('node:http');
  const current = typeof registry === 'function' ? registry : () => registry;
  const server = createServer(async (req, res) => {
    if (req.method !== 'GET' || req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    const registry = current();
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
