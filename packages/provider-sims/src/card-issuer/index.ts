import type { CardSimulator, CardSimulatorOptions } from '@exchange/server/provider-kit';
import { toUnits } from '@exchange/shared';
import type pg from 'pg';
import { sealPlainImages } from '../seal-legacy.ts';
import { CardWebhookDelivery } from './delivery.ts';
import { seal } from './keys.ts';
import { SIM_RATE_DECIMALS } from './money.ts';
import { networkCharge, networkReturn, purchaseCardToken } from './network.ts';
import { CARD_SIMULATOR_API, cardSimulatorRoutes } from './routes.ts';
import { decideSimKyc, loadCardSimulatorCredentials } from './store.ts';

/**
 * The card issuer simulator: a Marqeta-shaped API (`users`, `kyc`, `cards`, `cardtransitions`, `pins`, GPA orders
 * and transactions, Basic authentication) under `/v3`, a reviewer's desk, a card network (purchases, ATM, fees,
 * refunds), card fulfilment, and Marqeta's signed webhooks. Its state is in PostgreSQL (`cardsim_*`).
 */

export { cardNetwork } from './cli.ts';
export { expiration, generatePan, SIM_BIN, unseal } from './keys.ts';
export { SIM_RATE_DECIMALS, settleDueGpaOrders } from './money.ts';
export { moveReplacedBalances } from './replacement.ts';
export { CARD_SIMULATOR_API, CARD_SIMULATOR_PREFIX } from './routes.ts';
export { loadCardSimulatorCredentials } from './store.ts';

/**
 * Builds the simulator over a database: its credentials (made once), the routes to mount at
 * {@link CARD_SIMULATOR_API}, its webhook delivery (not started: a background job starts it), its reviewer and its
 * card network. What an earlier version stored in plain text is sealed first.
 */
export async function createCardSimulator(options: CardSimulatorOptions): Promise<CardSimulator> {
  const { db } = options;
  const credentials = await loadCardSimulatorCredentials(db);
  await sealPlainData(db, credentials.dataKey);
  const delivery = new CardWebhookDelivery({
    db,
    feed: options.feed,
    credentials,
    webhookUrl: options.webhookUrl,
    log: options.log,
    eurPerUsdt: options.eurPerUsdt,
  });
  const routeDeps = {
    db,
    credentials,
    autoApproveSeconds: options.autoApproveSeconds,
    shipSeconds: options.shipSeconds,
    topupSettleSeconds: options.topupSettleSeconds,
    eurPerUsdt: options.eurPerUsdt,
    kick: () => delivery.kick(),
  };
  return {
    prefix: CARD_SIMULATOR_API,
    api: CARD_SIMULATOR_API,
    routes: (app) => cardSimulatorRoutes(app, routeDeps),
    delivery,
    credentials,
    desk: {
      decide: (userToken, decision, reason, record) => decideSimKyc(db, userToken, decision, reason, record),
      latest: async (userToken) =>
        (
          await db.query(
            `select token, status, codes, created_time from cardsim_kyc where user_token = $1
             order by created_time desc limit 1`,
            [userToken],
          )
        ).rows[0],
    },
    network: {
      purchase: (input, now) =>
        networkCharge(
          db,
          {
            cardToken: input.cardToken,
            kind: 'purchase',
            eurCents: input.eurCents,
            merchant: input.merchant,
            rate: toUnits(input.eurPerUsdt, SIM_RATE_DECIMALS),
          },
          now,
        ),
      purchaseCard: (tradeId) => purchaseCardToken(db, tradeId),
      refund: (tradeId, eurCents) => networkReturn(db, { tradeId, kind: 'refund', eurCents }),
    },
  };
}

/** Seals the document images and identifications an earlier version stored in plain text (migration 0025). */
async function sealPlainData(db: pg.Pool, dataKey: string): Promise<void> {
  await sealPlainImages(db, 'cardsim_documents', async () => Buffer.from(dataKey, 'base64url'));
  for (;;) {
    const rows = (
      await db.query(
        `select token, identifications::text as plain from cardsim_users where identifications <> '[]'::jsonb limit 4`,
      )
    ).rows;
    let done = 0;
    for (const row of rows)
      done +=
        (
          await db.query(
            `update cardsim_users set identifications_sealed = $3, identifications = '[]'
              where token = $1 and identifications::text = $2`,
            [row.token, row.plain, seal(dataKey, row.plain as string)],
          )
        ).rowCount ?? 0;
    if (done === 0) return;
  }
}
