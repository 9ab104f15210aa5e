import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { createTestDatabase, type TestDatabase } from './db.ts';
import { startNats, type TestNats } from './nats.ts';
import { freePort } from './ports.ts';
import { type ServerProcess, serverSetup, startServerProcess } from './process.ts';

/** A process of a test cluster, with its address. */
export interface ClusterProcess {
  process: ServerProcess;
  base: string;
  dataDir: string;
}

/**
 * The split deployment on real parts for a test: a database of its own, a nats-server with JetStream, the signer,
 * and processes by role started as the test asks ({@link start}).
 */
export class TestCluster {
  readonly processes: Record<string, ClusterProcess> = {};

  private constructor(
    readonly db: TestDatabase,
    readonly nats: TestNats,
    private readonly signer: { url: string; token: string; port: string },
  ) {}

  /** A database, NATS and the signer (alone with the seed; it publishes its xpubs). */
  static async create(): Promise<TestCluster> {
    const [db, nats] = await Promise.all([createTestDatabase(), startNats()]);
    const port = String(await freePort());
    const cluster = new TestCluster(db, nats, {
      url: `http://127.0.0.1:${port}`,
      token: randomBytes(32).toString('base64url'),
      port,
    });
    await cluster.start('signer', 'signer', 'signer: listening');
    return cluster;
  }

  /** Starts a process with `role` and waits for `readyText` (by default: serving). */
  async start(
    name: string,
    role: string,
    readyText?: string,
    extra: Record<string, string> = {},
  ): Promise<void> {
    const setup = await serverSetup(`exchange-${name}-`, {
      ROLE: role,
      SIGNER_URL: this.signer.url,
      SIGNER_TOKEN: this.signer.token,
      SIGNER_PORT: this.signer.port,
      DATABASE_URL: this.db.url,
      NATS_URL: this.nats.url,
      // The worker reaches the providers' simulators and sends their webhooks through an api process.
      API_URL: this.processes.api1?.base ?? 'http://127.0.0.1:1',
      ...extra,
    });
    this.processes[name] = {
      process: await startServerProcess(setup.env, 60_000, readyText),
      base: setup.base,
      dataDir: setup.dataDir,
    };
  }

  /** The process `name`; throws when it was not started. */
  get(name: string): ClusterProcess {
    const started = this.processes[name];
    if (!started) throw new Error(`${name} did not start`);
    return started;
  }

  /** Stops every process, NATS and the database, and removes the data folders. */
  async stop(): Promise<void> {
    for (const { process } of Object.values(this.processes)) {
      if (process.child.exitCode === null) {
        process.child.kill('SIGTERM');
        await process.exited;
      }
    }
    await this.db.drop();
    await this.nats.stop();
    for (const { dataDir } of Object.values(this.processes))
      await rm(dataDir, { recursive: true, force: true });
  }
}
