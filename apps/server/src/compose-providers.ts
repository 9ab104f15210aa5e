import { API } from '@exchange/shared';
import type pg from 'pg';
import { BankWebhookDelivery } from './adapters/bank/simulator/delivery.ts';
import type { BankSimulatorDeps } from './adapters/bank/simulator/routes.ts';
import { loadBankSimulatorCredentials } from './adapters/bank/simulator/store.ts';
import { createMarqetaIssuer } from './adapters/card-issuer/marqeta.ts';
import type { CardIssuer } from './adapters/card-issuer/port.ts';
import type { WebhookCredentials } from './adapters/card-issuer/signing.ts';
import { CardWebhookDelivery } from './adapters/card-issuer/simulator/delivery.ts';
import { CARD_SIMULATOR_API, type CardSimulatorDeps } from './adapters/card-issuer/simulator/routes.ts';
import { loadCardSimulatorCredentials } from './adapters/card-issuer/simulator/store.ts';
import { WebhookDelivery } from './adapters/kyc/simulator/delivery.ts';
import { SIMULATOR_PREFIX } from './adapters/kyc/simulator/routes.ts';
import { loadSimulatorCredentials } from './adapters/kyc/simulator/store.ts';
import { createSumsubProvider } from './adapters/kyc/sumsub.ts';
import type { Config } from './config.ts';
import type { ChangeFeed } from './db/change-feed.ts';
import type { ModuleLogger } from './log.ts';
import { BANK_WEBHOOK_PATH } from './modules/bank-deposits/routes.ts';
import { CARD_WEBHOOK_PATH } from './modules/card/routes.ts';
import type { ServerKeys } from './modules/identity/crypto.ts';
import { KYC_WEBHOOK_PATH } from './modules/kyc/routes.ts';
import { KycService } from './modules/kyc/service.ts';

/**
 * The composition of the third-party providers with a simulator as the default (identity verification, the card
 * issuer, the bank): the real adapter from the configuration, or the built-in simulator reached over HTTP in this
 * same process, whose webhooks come back to it. Part of the composition root (compose.ts).
 */

/**
 * The KYC provider: the real Sumsub adapter, pointed at api.sumsub.com, or by default at the built-in
 * simulator in this same process (over HTTP, once the server listens), whose webhooks come back here.
 */
export async function kycFor(
  config: Config,
  db: pg.Pool,
  keys: ServerKeys,
  selfUrl: () => string | null,
  feed: ChangeFeed | undefined,
  log: ModuleLogger,
) {
  const widgetPath = `${SIMULATOR_PREFIX}/websdk`;
  if (config.kyc.provider === 'sumsub' && config.kyc.sumsub) {
    const s = config.kyc.sumsub;
    const service = new KycService({
      db,
      keys,
      provider: createSumsubProvider({ baseUrl: s.baseUrl, appToken: s.appToken, secretKey: s.secretKey }),
      levelName: config.kyc.levelName,
      kybLevelName: config.kyc.kybLevelName,
      publicUrl: config.publicUrl,
      webhookSecret: s.webhookSecret,
      widget: { kind: 'sumsub', sdkUrl: config.kyc.webSdkUrl },
      log,
    });
    return { service, simulator: undefined };
  }
  const credentials = await loadSimulatorCredentials(db);
  const delivery = new WebhookDelivery({
    db,
    feed,
    credentials,
    algorithm: config.kyc.simDigestAlg,
    webhookUrl: () => {
      const base = selfUrl();
      return base ? `${base}${API.barong}${KYC_WEBHOOK_PATH}` : null;
    },
    log,
  });
  const provider = createSumsubProvider({
    baseUrl: () => `${selfUrl() ?? 'http://127.0.0.1:0'}${SIMULATOR_PREFIX}`,
    appToken: credentials.appToken,
    secretKey: credentials.secretKey,
    kind: 'simulator',
  });
  const service = new KycService({
    db,
    keys,
    provider,
    levelName: config.kyc.levelName,
    kybLevelName: config.kyc.kybLevelName,
    publicUrl: config.publicUrl,
    webhookSecret: credentials.webhookSecret,
    widget: { kind: 'simulator', pagePath: widgetPath },
    log,
  });
  const routes = {
    db,
    credentials,
    publicUrl: config.publicUrl,
    autoApproveSeconds: config.kyc.autoApproveSeconds,
    kick: () => delivery.kick(),
  };
  return { service, simulator: { routes, delivery } };
}

/**
 * The card issuer: the Marqeta adapter, pointed at Marqeta, or by default at the built-in simulator in this same
 * process (over HTTP, once the server listens), whose signed webhooks come back here.
 */
export async function cardIssuerFor(
  config: Config,
  db: pg.Pool,
  selfUrl: () => string | null,
  feed: ChangeFeed | undefined,
  log: ModuleLogger,
): Promise<{
  issuer: CardIssuer;
  webhook: WebhookCredentials;
  simulator: { routes: CardSimulatorDeps; delivery: CardWebhookDelivery } | undefined;
}> {
  const m = config.card.marqeta;
  if (config.card.issuer === 'marqeta' && m) {
    const issuer = createMarqetaIssuer({
      baseUrl: m.baseUrl,
      username: m.appToken,
      password: m.accessToken,
      cardProductToken: m.cardProductToken,
      timeoutMs: config.card.issuerTimeoutMs,
    });
    return { issuer, webhook: m.webhook, simulator: undefined };
  }
  const credentials = await loadCardSimulatorCredentials(db);
  const delivery = new CardWebhookDelivery({
    db,
    feed,
    credentials,
    webhookUrl: () => {
      const base = selfUrl();
      return base ? `${base}${API.peatio}${CARD_WEBHOOK_PATH}` : null;
    },
    log,
    eurPerUsdt: config.card.fees.eurPerUsdt,
  });
  const issuer = createMarqetaIssuer({
    baseUrl: () => `${selfUrl() ?? 'http://127.0.0.1:0'}${CARD_SIMULATOR_API}`,
    username: credentials.apiUsername,
    password: credentials.apiPassword,
    cardProductToken: 'sim_card_product',
    kind: 'simulator',
    timeoutMs: config.card.issuerTimeoutMs,
  });
  const routes = {
    db,
    credentials,
    autoApproveSeconds: config.card.autoApproveSeconds,
    shipSeconds: config.card.simShipSeconds,
    topupSettleSeconds: config.card.topupSettleSeconds,
    eurPerUsdt: config.card.fees.eurPerUsdt,
    kick: () => delivery.kick(),
  };
  return {
    issuer,
    webhook: {
      username: credentials.webhookUsername,
      password: credentials.webhookPassword,
      secret: credentials.webhookSecret,
    },
    simulator: { routes, delivery },
  };
}

/**
 * The bank behind SEPA deposits: the built-in simulator (the collection account's one bank), reached over HTTP in
 * this same process, whose signed notifications come back here. A real bank's adapter would give its own secret.
 */
export async function bankFor(
  config: Config,
  db: pg.Pool,
  selfUrl: () => string | null,
  feed: ChangeFeed | undefined,
  log: ModuleLogger,
): Promise<{
  webhookSecret: string;
  simulator: { routes: BankSimulatorDeps; delivery: BankWebhookDelivery };
}> {
  const credentials = await loadBankSimulatorCredentials(db);
  const delivery = new BankWebhookDelivery({
    db,
    feed,
    webhookSecret: credentials.webhookSecret,
    webhookUrl: () => {
      const base = selfUrl();
      return base ? `${base}${API.peatio}${BANK_WEBHOOK_PATH}` : null;
    },
    log,
  });
  const routes = {
    db,
    credentials,
    collection: config.bank.collection,
    kick: () => delivery.kick(),
  };
  return { webhookSecret: credentials.webhookSecret, simulator: { routes, delivery } };
}
