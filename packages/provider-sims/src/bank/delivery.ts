import type { ChangeFeed } from '@exchange/server/provider-kit';
import { bankWebhookHeaders } from '@exchange/server/provider-kit';
import type pg from 'pg';
import { WebhookOutbox } from '../outbox.ts';

export interface BankDeliveryOptions {
  db: pg.Pool;
  webhookSecret: string;
  /** Where the exchange receives the bank's notifications; null while the server is not listening yet. */
  webhookUrl: () => string | null;
  feed?: ChangeFeed;
  pollMs?: number;
  log?: { warn(obj: unknown, msg?: string): void };
}

/**
 * The bank simulator's outgoing side: its credit notifications (camt.054 in JSON), sent to the exchange in order,
 * signed when sent (`X-Bank-Timestamp`, `X-Bank-Signature`), retried with back-off until the exchange answers 2xx.
 *
 * Pushed rather than polled: the exchange learns of a deposit at once, as it does from the other providers, and
 * the outbox already retries; a lost or repeated notification is harmless, because the exchange credits each
 * bank transaction id once.
 */
export class BankWebhookDelivery extends WebhookOutbox {
  constructor(options: BankDeliveryOptions) {
    super({
      ...options,
      table: 'banksim_webhooks',
      name: 'bank simulator',
      headers: (payload) => bankWebhookHeaders(options.webhookSecret, payload),
    });
  }
}
