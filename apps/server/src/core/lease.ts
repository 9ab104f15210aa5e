import pg from 'pg';
import { LOCKS, lockSession } from '../db/locks.ts';

/** How often a standby tries the lock. */
const STANDBY_POLL_MS = 100;

/** Thrown when another core holds the lease now: this one must stop, never commit. */
export class DeposedError extends Error {}

interface Log {
  info(message: string): void;
  warn(message: string): void;
}

/**
 * The right to be the active exchange core: a PostgreSQL session advisory lock held on a connection of its
 * own, and a term (`engine_state.core_term`) raised by each core that takes it. Every batch is fenced by the
 * term in its own transaction (core_fence), so a core that lost the lock, and whose successor has raised the
 * term, fails its next commit instead of writing. A core that waits for the lock is a standby.
 */
export class CoreLease {
  private lost = false;
  private released = false;

  private constructor(
    private client: pg.Client,
    private readonly url: string,
    /** This core's term. */
    readonly term: number,
    private readonly log: Log,
  ) {
    this.watch(client);
  }

  /**
   * Takes the lease, waiting as a standby while another core holds it (logged once), then raises the term.
   * @returns the lease and how long it waited for it (ms).
   */
  static async acquire(
    url: string,
    log: Log,
    signal?: AbortSignal,
  ): Promise<{ lease: CoreLease; waitedMs: number }> {
    const started = performance.now();
    const client = await connect(url);
    try {
      let said = false;
      while (!(await tryLock(client))) {
        if (!said) log.info('standby: another exchange core is active; waiting to take over');
        said = true;
        if (signal?.aborted) throw new Error('stopped while waiting for the core lease');
        await new Promise((resolve) => setTimeout(resolve, STANDBY_POLL_MS));
      }
      const raised = await client.query<{ core_term: string }>(
        'update engine_state set core_term = core_term + 1 where id = 1 returning core_term',
      );
      const term = Number(raised.rows[0]!.core_term);
      return {
        lease: new CoreLease(client, url, term, log),
        waitedMs: Math.round(performance.now() - started),
      };
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
  }

  /**
   * Before the core reloads after a lost database: takes the lock again if its connection went, and checks that
   * no other core took the lease meanwhile (the term is still this one's). Database errors propagate (the
   * reload retries); {@link DeposedError} means another core is active.
   */
  async confirm(): Promise<number> {
    if (this.lost) {
      const client = await connect(this.url);
      if (!(await tryLock(client))) {
        await client.end().catch(() => {});
        throw new DeposedError('another exchange core holds the lease');
      }
      this.client = client;
      this.lost = false;
      this.watch(client);
      this.log.info(`exchange core took its lease back (term ${this.term})`);
    }
    const current = Number(
      (await this.client.query<{ core_term: string }>('select core_term from engine_state where id = 1'))
        .rows[0]!.core_term,
    );
    if (current !== this.term)
      throw new DeposedError(`exchange core term ${this.term} was superseded by term ${current}`);
    return this.term;
  }

  /** Gives the lease up (a clean shutdown): a standby takes over at once. */
  async release(): Promise<void> {
    this.released = true;
    await this.client.end().catch(() => {});
  }

  private watch(client: pg.Client): void {
    // Without a listener a dropped connection would crash the process; the fence keeps commits safe meanwhile.
    const lost = () => {
      if (client !== this.client || this.lost || this.released) return;
      this.lost = true;
      this.log.warn('exchange core: the connection holding the core lease was lost');
    };
    client.on('error', lost);
    client.on('end', lost);
  }
}

async function connect(url: string): Promise<pg.Client> {
  // TCP keep-alive: a connection cut without a word (a half-open one) is noticed, and with it the lost lock.
  const client = new pg.Client({
    connectionString: url,
    application_name: 'exchange-core-lease',
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  client.on('error', () => {});
  await client.connect();
  return client;
}

function tryLock(client: pg.Client, key: number = LOCKS.core): Promise<boolean> {
  return lockSession(client, key, false);
}

/**
 * Waits until this process holds the advisory lock `key` (logging once that it waits), on a connection of its
 * own that keeps it; `onLost` is called if that connection goes (the lock went with it).
 */
export async function holdLock(
  url: string,
  key: number,
  what: string,
  log: Log,
  onLost: () => void,
): Promise<{ release(): Promise<void> }> {
  const client = await connect(url);
  let said = false;
  while (!(await tryLock(client, key))) {
    if (!said) log.info(`standby: another process runs the ${what}; waiting to take over`);
    said = true;
    await new Promise((resolve) => setTimeout(resolve, STANDBY_POLL_MS));
  }
  let released = false;
  const lost = () => {
    if (released) return;
    released = true;
    onLost();
  };
  client.on('error', lost);
  client.on('end', lost);
  return {
    async release() {
      released = true;
      await client.end().catch(() => {});
    },
  };
}
