import type pg from 'pg';
import { type DigestAlgorithm, payloadDigest } from '../signing.ts';
import { actOnApplicant, type SimulatorCredentials } from './store.ts';

export interface DeliveryOptions {
  db: pg.Pool;
  credentials: SimulatorCredentials;
  algorithm: DigestAlgorithm;
  /** Where the exchange receives webhooks; null while the server is not listening yet. */
  webhookUrl: () => string | null;
  /** How often due webhooks (some queued by the operator CLI) and scheduled reviews are looked for. */
  pollMs?: number;
  log?: { warn(obj: unknown, msg?: string): void };
}

/**
 * The simulator's outgoing side: sends queued webhooks to the exchange, signed with `x-payload-digest`
 * exactly as Sumsub signs them, in order, retried with back-off; and plays the reviewer for the demo
 * setting that auto-approves a submitted applicant after a delay.
 */
export class WebhookDelivery {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(private readonly options: DeliveryOptions) {}

  /**
   * Starts polling. It holds no connection between passes (a pool being closed never waits for it); what
   * this process queues is sent at once through {@link kick}, what the operator CLI queues at the next poll.
   */
  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.kick(), this.options.pollMs ?? 1000);
    this.timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => {});
  }

  /** Runs one pass now (or right after the current one). */
  kick(): void {
    if (this.stopped || (this.options.db as { ending?: boolean }).ending) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .catch((err) => this.options.log?.warn({ err }, 'kyc simulator: delivery pass failed'))
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

  private async pass(): Promise<void> {
    const db = this.options.db;
    const due = await db.query(
      `select id from kyc_sim_applicants where auto_review_at <= now() and review_status = 'pending' limit 20`,
    );
    for (const row of due.rows) await actOnApplicant(db, row.id, 'approve');
    const url = this.options.webhookUrl();
    if (!url) return;
    for (let i = 0; i < 100 && !this.stopped; i++) {
      const claimed = (
        await db.query(
          `update kyc_sim_webhooks set attempts = attempts + 1,
             next_attempt_at = now() + make_interval(secs => least(power(2, attempts + 1), 300)::int)
           where id = (select id from kyc_sim_webhooks where delivered_at is null and next_attempt_at <= now()
                       order by id limit 1 for update skip locked)
           returning id, payload`,
        )
      ).rows[0] as { id: string; payload: string } | undefined;
      if (!claimed) return;
      const error = await this.send(url, claimed.payload);
      if (error === null)
        await db.query('update kyc_sim_webhooks set delivered_at = now(), last_error = null where id = $1', [
          claimed.id,
        ]);
      else await db.query('update kyc_sim_webhooks set last_error = $2 where id = $1', [claimed.id, error]);
    }
  }

  private async send(url: string, payload: string): Promise<string | null> {
    const { credentials, algorithm } = this.options;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-payload-digest': payloadDigest(algorithm, credentials.webhookSecret, payload),
          'x-payload-digest-alg': algorithm,
        },
        body: payload,
        signal: AbortSignal.timeout(5000),
      });
      await response.arrayBuffer();
      return response.ok ? null : `HTTP ${response.status}`;
    } catch (err) {
      return (err as Error).message;
    }
  }
}
