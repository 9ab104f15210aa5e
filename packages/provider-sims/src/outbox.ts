import type { ChangeFeed } from '@exchange/server/provider-kit';
import type pg from 'pg';
import { DueWork } from './due-work.ts';

/** The simulators' webhook tables: id, payload, attempts, next_attempt_at, delivered_at, last_error. */
export type WebhookTable = 'kyc_sim_webhooks' | 'cardsim_webhooks' | 'banksim_webhooks';

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

/**
 * A simulated provider's outgoing side, an outbox in PostgreSQL: sends queued webhooks to the exchange in order,
 * signed as the provider signs them, retried with exponential back-off (up to 5 minutes) until the exchange
 * answers 2xx. What this process queues is sent at once through {@link kick}; between passes it sleeps until its
 * earliest due work (a webhook's next attempt, the provider's scheduled work) or until the change feed announces
 * new work (see {@link DueWorker}).
 */
export class WebhookOutbox extends DueWork {
  constructor(private readonly options: WebhookOutboxOptions) {
    const { db, table, dueSql } = options;
    super({
      db,
      name: `${options.name}: delivery`,
      nextDueMs: async () => {
        const row = (
          await db.query(
            `select extract(epoch from (least((select min(next_attempt_at) from ${table} where delivered_at is null)${
              dueSql ? `, ${dueSql}` : ''
            }) - now())) * 1000 as ms`,
          )
        ).rows[0] as { ms: string | null } | undefined;
        return row?.ms === null || row?.ms === undefined ? null : Number(row.ms);
      },
      feed: options.feed,
      announcement: `o:${table}`,
      pollMs: options.pollMs,
      log: options.log,
    });
  }

  protected async pass(): Promise<void> {
    const { db, table } = this.options;
    await this.options.beforeSend?.(db);
    const url = this.options.webhookUrl();
    if (!url) return;
    for (let i = 0; i < 100 && !this.stopping; i++) {
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
