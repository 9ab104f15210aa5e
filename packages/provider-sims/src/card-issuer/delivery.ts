import type { ChangeFeed } from '@exchange/server/provider-kit';
import { webhookHeaders } from '@exchange/server/provider-kit';
import { toUnits } from '@exchange/shared';
import type pg from 'pg';
import { WebhookOutbox } from '../outbox.ts';
import { SIM_RATE_DECIMALS, settleDueGpaOrders } from './money.ts';
import { moveReplacedBalances } from './replacement.ts';
import { advanceFulfilment, autoApproveDue, type CardSimulatorCredentials } from './store.ts';

export interface CardDeliveryOptions {
  db: pg.Pool;
  credentials: CardSimulatorCredentials;
  /** Where the exchange receives webhooks; null while the server is not listening yet. */
  webhookUrl: () => string | null;
  /** Announces new work from any process; without it, due work is looked for every `pollMs`. */
  feed?: ChangeFeed;
  /** How often due work (auto-approvals, shipping, webhooks queued by the operator CLI) is looked for unheard. */
  pollMs?: number;
  log?: { warn(obj: unknown, msg?: string): void };
  /** EUR per USDT, a decimal string: the rate the simulated network records top-ups and spends at. */
  eurPerUsdt?: string;
}

/**
 * When the next piece of the issuer's own work falls due: an auto-approval, a card shipped or delivered, a top-up
 * settled; and now, while a delivered replacement waits for its old card's balance (see `moveReplacedBalances`).
 */
const CARD_WORK_DUE = `least(
  (select min(auto_review_at) from cardsim_kyc where status = 'pending'),
  (select min(case fulfillment_status when 'ORDERED' then ship_at else deliver_at end) from cardsim_cards
    where fulfillment_status in ('ORDERED', 'SHIPPED')),
  (select min(settle_at) from cardsim_gpaorders where state = 'PENDING'),
  (select now() from cardsim_cards n join cardsim_cards o on o.token = n.new_pan_from
    where n.fulfillment_status = 'DELIVERED' and o.balance <> 0 limit 1))`;

/**
 * The card issuer simulator's outgoing side: plays the demo reviewer (auto-approval), the card fulfilment
 * (shipped, then delivered) the settlement of top-ups (funding orders) and
 * the move of a replaced card's balance to its delivered replacement, and sends queued webhooks to the exchange in order, with Marqeta's Basic
 * credentials and `X-Marqeta-Signature`, retried with back-off until the exchange answers 2xx.
 */
export class CardWebhookDelivery extends WebhookOutbox {
  constructor(options: CardDeliveryOptions) {
    const c = options.credentials;
    const credentials = { username: c.webhookUsername, password: c.webhookPassword, secret: c.webhookSecret };
    super({
      ...options,
      table: 'cardsim_webhooks',
      name: 'card simulator',
      headers: (payload) => webhookHeaders(credentials, payload),
      dueSql: CARD_WORK_DUE,
      beforeSend: async (db) => {
        await autoApproveDue(db);
        await advanceFulfilment(db);
        const rate = toUnits(options.eurPerUsdt ?? '0.92', SIM_RATE_DECIMALS);
        await settleDueGpaOrders(db, rate);
        await moveReplacedBalances(db, rate);
      },
    });
  }
}
