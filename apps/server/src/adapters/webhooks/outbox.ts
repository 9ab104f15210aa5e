import type pg from 'pg';
import type { ChangeFeed } from '../../db/change-feed.ts';

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
  /**
   * When the provider's own scheduled work falls due: one SQL expression of a time (`null`: none), e.g. the
   * earliest scheduled review. With the webhooks' next attempts it says how long the outbox may sleep.
   */
  dueSql?: string;
  /**
   * Announces work queued or scheduled by any process (`o:<table>`, see migration 0031). While it is heard the
   * outbox sleeps until the earliest due work; without it, or while it is not heard, it looks every `pollMs`.
   */
  feed?: ChangeFeed;
  /** How often due work and webhooks queued by another process are looked for when no feed is heard. */
  pollMs?: number;
  /** How long the exchange may take to answer one webhook. */
  timeoutMs?: number;
  log?: { warn(obj: unknown, msg?: string): void };
}

/** The longest sleep while the feed is heard: a safety net, should a notification ever be missed. */
const IDLE_RECHECK_MS = 30_000;
/** Slept past a due time, so that the database's clock has passed it too. */
const DUE_MARGIN_MS = 20;

/**
 * A simulated provider's outgoing side, an outbox in PostgreSQL: sends queued webhooks to the exchange in order,
 * signed as the provider signs them, retried with exponential back-off (up to 5 minutes) until the exchange
 * answers 2xx. It holds no connection between passes, so a pool being closed never waits for it; what this
 * process queues is sent at once through {@link kick}. Between passes it sleeps until its earliest due work (a
 * webhook's next attempt, the provider's scheduled work) or until the change feed announces new work, so an idle
 * provider costs the database nothing; without a heard feed it looks every `pollMs`.
 */
export class WebhookOutbox {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private subscribed = false;

  constructor(private readonly options: WebhookOutboxOptions) {}

  /** Starts delivering: a pass now, then whenever work falls due or is announced. */
  start(): void {
    this.stopped = false;
    const { feed, table } = this.options;
    if (feed && !this.subscribed) {
      this.subscribed = true;
      feed.subscribe((payload) => {
        if (payload === `o:${table}`) this.kick();
      });
      // Whatever was announced while the feed was not heard is looked for once it is heard again.
      feed.onReset(() => this.kick());
    }
    this.kick();
  }

  /** Stops delivering and waits for the pass under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running?.catch(() => {});
  }

  /** Runs one pass now (or right after the current one). */
  kick(): void {
    if (this.stopped || this.poolEnding()) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.pass()
      .catch((err) => {
        // A pool being closed under a pass (shutdown) is not worth a warning.
        if (!this.poolEnding())
          this.options.log?.warn({ err: String(err) }, `${this.options.name}: delivery pass failed`);
      })
      .then(() => (this.again ? undefined : this.sleepMs()))
      .then((sleep) => {
        this.running = undefined;
        // Kicked while this pass ran (or while it looked up its sleep): another pass at once.
        if (this.again || sleep === undefined) {
          this.again = false;
          this.kick();
        } else if (!this.stopped) {
          this.timer = setTimeout(() => this.kick(), sleep);
          this.timer.unref();
        }
      });
  }

  /**
   * How long to sleep before the next pass. While the feed is heard: until the earliest due work, at most
   * {@link IDLE_RECHECK_MS}. `pollMs` while it is not heard, and when work already due is still waiting (the
   * exchange not listening yet); a refused webhook is not that, its retry has a time of its own.
   */
  private async sleepMs(): Promise<number> {
    const poll = this.options.pollMs ?? 1000;
    if (!this.options.feed?.live || this.stopped || this.poolEnding()) return poll;
    const { table, dueSql } = this.options;
    try {
      const row = (
        await this.options.db.query(
          `select extract(epoch from (least((select min(next_attempt_at) from ${table} where delivered_at is null)${
            dueSql ? `, ${dueSql}` : ''
          }) - now())) * 1000 as ms`,
        )
      ).rows[0] as { ms: string | null } | undefined;
      if (row?.ms === null || row?.ms === undefined) return IDLE_RECHECK_MS;
      const until = Number(row.ms);
      return until > 0 ? Math.min(IDLE_RECHECK_MS, Math.ceil(until) + DUE_MARGIN_MS) : poll;
    } catch {
      return poll;
    }
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
