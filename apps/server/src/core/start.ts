import { createServer } from 'node:http';
import { API, ERRORS } from '@exchange/shared';
import { connect, type NatsConnection } from 'nats';
import type pg from 'pg';
import type { Config } from '../config.ts';
import { type ActiveCore, type Core, startCore } from './index.ts';
import { CoreLease } from './lease.ts';
import { CoreServer } from './remote/core-server.ts';
import { RemoteSequencer } from './remote/remote-sequencer.ts';
import { ReplicaSequencer } from './remote/replica.ts';

interface Log {
  info(message: string): void;
  warn(message: string): void;
}

/** The core as this process has it, and how to let it go. */
export interface ProcessCore {
  core: Core;
  /** Set in a process with the core role, once it holds the lease. */
  active: ActiveCore | undefined;
  nats: NatsConnection | undefined;
  /**
   * The standby's health page, still answering (503, with the phase of the takeover) while the core that took the
   * lease loads and the app starts: close it right before the app listens on the port.
   */
  recovering?: { close(): Promise<void> };
  stop(): Promise<void>;
}

/**
 * The exchange core for this process's roles. With the core role: takes the core lease (waiting as a standby
 * while another core holds it), loads the engine, and in a split deployment serves it over NATS. Without it: a
 * replica that sends commands to the active core over NATS and follows its committed batches.
 */
export async function startProcessCore(
  config: Config,
  db: pg.Pool,
  url: string,
  log: Log,
  onFatal: (err: Error) => void,
): Promise<ProcessCore> {
  const nats = config.split
    ? await connect({
        servers: config.natsUrl,
        name: `exchange-${[...config.roles].join('+')}-${process.pid}`,
        // A NATS restart must not end the process: it reconnects and the commands are retried.
        maxReconnectAttempts: -1,
      })
    : undefined;
  if (!config.roles.has('core')) {
    const remote = new RemoteSequencer(nats as NatsConnection);
    const core = await ReplicaSequencer.start(db, nats as NatsConnection, remote, log);
    return {
      core,
      active: undefined,
      nats,
      async stop() {
        (core.sequencer as ReplicaSequencer).stop();
        await nats?.close();
      },
    };
  }
  // One active core per database: another process with the core role waits here as a standby and takes over
  // when the active one's lease goes (its process or its connection died).
  const standby = await standbyHealth(config);
  const { lease, waitedMs } = await CoreLease.acquire(url, log).catch(async (err: unknown) => {
    await standby?.close();
    throw err;
  });
  const tookLease = performance.now();
  standby?.phase('loading the engine from the database');
  const active = await startCore(db, config.split ? { maxBatch: 2000 } : {}, onFatal, lease);
  standby?.phase('starting the api');
  if (waitedMs > 1000)
    log.info(
      `took over as the active exchange core (term ${lease.term}); the engine loaded in ${Math.round(performance.now() - tookLease)} ms`,
    );
  active.sequencer.onRecovered(({ seq }) =>
    log.info(`exchange core reloaded from the database at batch ${seq}`),
  );
  const server = nats ? await CoreServer.start(nats, active.sequencer, log) : undefined;
  return {
    core: active,
    active,
    nats,
    ...(standby ? { recovering: standby } : {}),
    async stop() {
      await server?.stop();
      await active.sequencer.close();
      await lease.release();
      await nats?.close();
    },
  };
}

/**
 * While a core waits for the lease, and then while it loads and the app starts, its port answers the health routes
 * so a load balancer or an operator can see it: alive, but not ready (503 with `"core": {"active": false}` and
 * the phase: `waiting for the core lease`, `loading the engine from the database`, `starting the api`, with the
 * seconds it has been in it). Every other path answers 503 at once, never hangs. The app takes the port over
 * once it is ready (`close`).
 */
async function standbyHealth(
  config: Config,
): Promise<{ phase(name: string): void; close(): Promise<void> } | undefined> {
  let phase = 'waiting for the core lease';
  let since = performance.now();
  const server = createServer((req, res) => {
    const alive = req.url === `${API.peatio}/public/health/alive`;
    const ready = req.url === `${API.peatio}/public/health/ready`;
    if (!alive && !ready)
      return void res
        .writeHead(503, { 'content-type': 'application/json', 'retry-after': '1', connection: 'close' })
        .end(JSON.stringify({ errors: [ERRORS.standby] }));
    const body = {
      status: phase === 'waiting for the core lease' ? 'standby' : 'recovering',
      roles: [...config.roles],
      core: { active: false },
      phase,
      seconds: Math.round((performance.now() - since) / 100) / 10,
    };
    res
      .writeHead(alive ? 200 : 503, { 'content-type': 'application/json', connection: 'close' })
      .end(alive ? '{"status":"alive"}' : JSON.stringify(body));
  });
  const listening = await new Promise<boolean>((resolve) => {
    // A port already taken (a test app, another process) is not this function's business: no standby page then.
    server.once('error', () => resolve(false));
    server.listen(config.port, config.host, () => resolve(true));
  });
  if (!listening) return undefined;
  return {
    phase(name: string) {
      phase = name;
      since = performance.now();
    },
    close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      return closed;
    },
  };
}
