import pg from 'pg';

/**
 * The channel migration 0030's triggers announce changes on: of sessions, API keys and users (`s:`, `k:`, `u:`)
 * and work for the wallet (`w:`).
 */
export const CHANGES_CHANNEL = 'exchange_changes';

/** Waits between attempts to listen again after the connection was lost, growing to the last. */
const RETRY_MS = [50, 250, 1000];
/** How often the feed checks that it still hears itself, and how long a check may take. */
const PROBE_EVERY_MS = 15_000;
const PROBE_WAIT_MS = 2_000;
const PROBE = 'probe:';

/**
 * One PostgreSQL connection that LISTENs on a channel and hands every notification to its subscribers. Caches
 * built on it may keep an entry for as long as the feed is `live`: PostgreSQL delivers a notification to every
 * listener when the transaction that raised it commits. While the connection is down nothing is heard, so
 * `live` is false (caches must read through) and, once it listens again, `onReset` subscribers forget
 * everything they hold, since whatever changed meanwhile went unheard.
 *
 * The feed is live only once it has heard a notification it sent itself, and it checks that again every
 * {@link PROBE_EVERY_MS}: behind a pooler that hands each statement to another server connection (PgBouncer in
 * transaction mode) LISTEN succeeds but nothing arrives, and such a feed must never be trusted.
 */
export class ChangeFeed {
  private client: pg.Client | undefined;
  private listening = false;
  private stopped = false;
  private attempt = 0;
  private retry: NodeJS.Timeout | undefined;
  private prober: NodeJS.Timeout | undefined;
  private probes = 0;
  private readonly heard = new Map<string, () => void>();
  private warned = false;
  private readonly subscribers: ((payload: string) => void)[] = [];
  private readonly resets: (() => void)[] = [];

  constructor(
    private readonly connection: pg.ClientConfig,
    private readonly channel: string = CHANGES_CHANNEL,
  ) {}

  /** A feed over the same database as `pool`. */
  static of(pool: pg.Pool, channel: string = CHANGES_CHANNEL): ChangeFeed {
    return new ChangeFeed(
      { ...(pool.options as pg.ClientConfig), application_name: 'exchange-feed' },
      channel,
    );
  }

  /** True while notifications are being heard. */
  get live(): boolean {
    return this.listening;
  }

  /** Calls `listener` with each notification's payload. */
  subscribe(listener: (payload: string) => void): void {
    this.subscribers.push(listener);
  }

  /** Calls `listener` each time the feed listens again after a gap (and at the first start). */
  onReset(listener: () => void): void {
    this.resets.push(listener);
  }

  /** Connects and listens; resolves once listening (or once the first attempt failed: it keeps trying). */
  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client(this.connection);
    this.client = client;
    client.on('notification', (message) => {
      if (message.channel !== this.channel || message.payload === undefined) return;
      if (message.payload.startsWith(PROBE)) {
        this.heard.get(message.payload)?.();
        return;
      }
      for (const subscriber of this.subscribers) subscriber(message.payload);
    });
    const lost = () => {
      if (this.client !== client) return;
      this.listening = false;
      this.client = undefined;
      clearInterval(this.prober);
      client.end().catch(() => {});
      this.scheduleRetry();
    };
    client.on('error', lost);
    client.on('end', lost);
    try {
      await client.connect();
      await client.query(`listen ${client.escapeIdentifier(this.channel)}`);
      if (!(await this.hearsItself(client))) {
        if (!this.warned)
          console.warn(
            'change feed: LISTEN/NOTIFY does not come through (a transaction pooler?); caches hold entries for at most a second',
          );
        this.warned = true;
        return lost();
      }
      if (this.client !== client) return;
      this.attempt = 0;
      this.listening = true;
      for (const reset of this.resets) reset();
      this.prober = setInterval(() => {
        void this.hearsItself(client).then((ok) => {
          if (!ok) lost();
        });
      }, PROBE_EVERY_MS);
      this.prober.unref();
    } catch {
      lost();
    }
  }

  /** Sends a notification on the channel and says whether it came back within {@link PROBE_WAIT_MS}. */
  private async hearsItself(client: pg.Client): Promise<boolean> {
    const payload = `${PROBE}${process.pid}:${++this.probes}`;
    let timer: NodeJS.Timeout | undefined;
    const heard = new Promise<boolean>((resolve) => {
      this.heard.set(payload, () => resolve(true));
      timer = setTimeout(() => resolve(false), PROBE_WAIT_MS);
    });
    try {
      await client.query('select pg_notify($1, $2)', [this.channel, payload]);
      return await heard;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
      this.heard.delete(payload);
    }
  }

  private scheduleRetry(): void {
    if (this.stopped || this.retry) return;
    const wait = RETRY_MS[Math.min(this.attempt++, RETRY_MS.length - 1)];
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.connect();
    }, wait);
    this.retry.unref();
  }

  /** Stops listening and closes the connection. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.listening = false;
    clearTimeout(this.retry);
    clearInterval(this.prober);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }
}
