import type pg from 'pg';

/** The simulators' webhook tables: id, payload, attempts, next_attempt_at, delivered_at, last_error. */
export type WebhookTable = 'kyc_sim_webhooks' | 'cardsim_webhooks';

export interface WebhookOutboxOptions {
  db: pg.Pool;
  table: WebhookTable;
  /** Names the provider in log lines, e.g. `kyc simulator`. */
  name: string;
  /** Where the exchange receives webhooks; null while the server is not listening yet. */
  webhookUrl: () => string | null;
  /** The request headers for one payload: its content type and the provider's signature. */
  headers: (payload: string) => Record<string, string>;
  /** Work of the provider that falls due before sending (scheduled reviews, card fulfilment). */
  beforeSend?: (db: pg.Pool) => Promise<void>;
  /** How often due work and webhooks queued by another process (the operator CLI) are looked for. */
  pollMs?: number;
  /** How long the exchange may take to answer one webhook. */
  timeoutMs?: number;
  log?: { warn(obj: unknown, msg?: string): void };
}

/**
 * A simulated provider's outgoing side, a polling outbox in PostgreSQL: sends queued webhooks to the exchange
 * in order, signed as the provider signs them, retried with exponential back-off (up to 5 minutes) until the
 * exchange answers 2xx. It holds no connection between passes, so a pool being closed never waits for it; what
 * this process queues is sent at once through {@link kick}.
 */
export class WebhookOutbox {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(private readonly options: WebhookOutboxOptions) {}

  /** Starts polling. */
  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.kick(), this.options.pollMs ?? 1000);
    this.timer.unref();
    this.kick();
  }

  /** Stops polling and waits for the pass under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => {});
  }

  /** Runs one pass now (or right after the current one). */
  kick(): void {
    if (this.stopped || this.poolEnding()) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .catch((err) => {
        // A pool being closed under a pass (shutdown) is not worth a warning.
        if (!this.poolEnding())
          this.options.log?.warn({ err: String(err) }, `${this.options.name}: delivery pass failed`);
      })
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Waits until no pass is running (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private poolEnding(): boolean {
    return (this.options.db as { ending?: boolean }).ending === true;
  }

  private async pass(): Promise<void> {
    const { db, table } = this.options;
    await this.options.beforeSend?.(db);
    const url = this.options.webhookUrl();
    if (!url) return;
    for (let i = 0; i < 100 && !this.stopped; i++) {
      const claimed = (
        await db.query(
          `update ${table} set attempts = attempts + 1,
             next_attempt_at = now() + make_interval(secs => least(power(2, attempts + 1), 300)::int)
           where id = (select id from ${table} where delivered_at is null and next_attempt_at <= now()
                       order by id limit 1 for update skip locked)
           returning id, payload`,
        )
      ).rows[0] as { id: string; payload: string } | undefined;
      if (!claimed) return;
      const error = await this.send(url, claimed.payload);
      if (error === null)
        await db.query(`update ${table} set delivered_at = now(), last_error = null where id = $1`, [
          claimed.id,
        ]);
      else await db.query(`update ${table} set last_error = $2 where id = $1`, [claimed.id, error]);
    }
  }

  private async send(url: string, payload: string): Promise<string | null> {
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: this.options.headers(payload),
        body: payload,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
      await response.arrayBuffer();
      return response.ok ? null : `HTTP ${response.status}`;
    } catch (err) {
      return (err as Error).message;
    }
  }
}
