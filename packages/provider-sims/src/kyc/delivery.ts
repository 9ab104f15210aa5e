import type { ChangeFeed } from '@exchange/server/provider-kit';
import { type DigestAlgorithm, payloadDigest } from '@exchange/server/provider-kit';
import type pg from 'pg';
import { WebhookOutbox } from '../outbox.ts';
import { actOnApplicant, type SimulatorCredentials } from './store.ts';

export interface DeliveryOptions {
  db: pg.Pool;
  credentials: SimulatorCredentials;
  algorithm: DigestAlgorithm;
  /** Where the exchange receives webhooks; null while the server is not listening yet. */
  webhookUrl: () => string | null;
  /** Announces new work from any process; without it, due work is looked for every `pollMs`. */
  feed?: ChangeFeed;
  /** How often due webhooks (some queued by the operator CLI) and scheduled reviews are looked for unheard. */
  pollMs?: number;
  log?: { warn(obj: unknown, msg?: string): void };
}

/**
 * The KYC simulator's outgoing side: sends queued webhooks to the exchange, signed with `x-payload-digest`
 * exactly as Sumsub signs them, in order, retried with back-off; and plays the reviewer for the demo setting
 * that auto-approves a submitted applicant after a delay.
 */
export class WebhookDelivery extends WebhookOutbox {
  constructor(options: DeliveryOptions) {
    const { credentials, algorithm } = options;
    super({
      ...options,
      table: 'kyc_sim_webhooks',
      name: 'kyc simulator',
      timeoutMs: 5000,
      headers: (payload) => ({
        'content-type': 'application/json',
        'x-payload-digest': payloadDigest(algorithm, credentials.webhookSecret, payload),
        'x-payload-digest-alg': algorithm,
      }),
      dueSql: `(select min(auto_review_at) from kyc_sim_applicants where review_status = 'pending')`,
      beforeSend: async (db) => {
        const due = await db.query(
          `select id from kyc_sim_applicants where auto_review_at <= now() and review_status = 'pending' limit 20`,
        );
        for (const row of due.rows) await actOnApplicant(db, row.id, 'approve');
      },
    });
  }
}
