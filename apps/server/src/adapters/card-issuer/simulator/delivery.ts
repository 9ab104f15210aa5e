import type pg from 'pg';
import { webhookHeaders } from '../signing.ts';
import { advanceFulfilment, autoApproveDue, type CardSimulatorCredentials } from './store.ts';

export interface CardDeliveryOptions {
  db: pg.Pool;
  credentials: CardSimulatorCredentials;
  /** Where the exchange receives webhooks; null while the server is not listening yet. */
  webhookUrl: () => string | null;
  /** How often due work (auto-approvals, shipping, webhooks queued by the operator CLI) is looked for. */
  pollMs?: number;
  log?: { warn(obj: unknown, msg?: string): void };
}

/**
 * The simulator's outgoing side, a polling outbox: plays the demo reviewer (auto-approval) and the card
 * fulfilment (shipped, then delivered), and sends queued webhooks to the exchange in order, with Marqeta's
 * Basic credentials and `X-Marqeta-Signature`, retried with back-off until the exchange answers 2xx.
 */
export class CardWebhookDelivery {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(private readonly options: CardDeliveryOptions) {}

  /** Starts polling; what this process queues is sent at once through {@link kick}. */
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
      .catch((err) => {
        // A pool being closed under a pass (shutdown) is not worth a warning.
        if (!(this.options.db as { ending?: boolean }).ending)
          this.options.log?.warn({ err: String(err) }, 'card simulator: delivery pass failed');
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

  private async pass(): Promise<void> {
    const db = this.options.db;
    await autoApproveDue(db);
    await advanceFulfilment(db);
    const url = this.options.webhookUrl();
    if (!url) return;
    for (let i = 0; i < 100 && !this.stopped; i++) {
      const claimed = (
        await db.query(
          `update cardsim_webhooks set attempts = attempts + 1,
             next_attempt_at = now() + make_interval(secs => least(power(2, attempts + 1), 300)::int)
           where id = (select id from cardsim_webhooks where delivered_at is null and next_attempt_at <= now()
                       order by id limit 1 for update skip locked)
           returning id, payload`,
        )
      ).rows[0] as { id: string; payload: string } | undefined;
      if (!claimed) return;
      const error = await this.send(url, claimed.payload);
      if (error === null)
        await db.query('update cardsim_webhooks set delivered_at = now(), last_error = null where id = $1', [
          claimed.id,
        ]);
      else await db.query('update cardsim_webhooks set last_error = $2 where id = $1', [claimed.id, error]);
    }
  }

  private async send(url: string, payload: string): Promise<string | null> {
    const c = this.options.credentials;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: webhookHeaders(
          { username: c.webhookUsername, password: c.webhookPassword, secret: c.webhookSecret },
          payload,
        ),
        body: payload,
        signal: AbortSignal.timeout(10_000),
      });
      await response.arrayBuffer();
      return response.ok ? null : `HTTP ${response.status}`;
    } catch (err) {
      return (err as Error).message;
    }
  }
}
