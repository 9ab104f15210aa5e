import { API } from '@exchange/shared';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import type { BankPort } from './adapters/bank/port.ts';
import { createMarqetaIssuer } from './adapters/card-issuer/marqeta.ts';
import type { CardIssuer } from './adapters/card-issuer/port.ts';
import type { WebhookCredentials } from './adapters/card-issuer/signing.ts';
import { createSumsubProvider } from './adapters/kyc/sumsub.ts';
import { recordOutgoing } from './adapters/mail/outbox.ts';
import type {
  BankSimulator,
  CardSimulator,
  KycSimulator,
  SmsSimulator,
  TravelRuleNetworkDesk,
  TravelRuleSimulator,
} from './adapters/simulators.ts';
import {
  createOutboxSms,
  type SmsInbox,
  type SmsMessage,
  type SmsPort,
  type SmsStatusWebhook,
} from './adapters/sms/port.ts';
import { simulatorInbox } from './adapters/sms/simulator-inbox.ts';
import { createTwilioSms } from './adapters/sms/twilio.ts';
import { httpTravelRule } from './adapters/travel-rule/http-client.ts';
import type { TravelRulePort } from './adapters/travel-rule/port.ts';
import { type Clock, dateOf } from './clock.ts';
import type { Config } from './config.ts';
import type { ChangeFeed } from './db/change-feed.ts';
import type { ModuleLogger } from './log.ts';
import { BANK_WEBHOOK_PATH } from './modules/bank-deposits/routes.ts';
import { CARD_WEBHOOK_PATH } from './modules/card/routes.ts';
import type { ServerKeys } from './modules/identity/crypto.ts';
import { SMS_STATUS_PATH } from './modules/identity/sms-status-routes.ts';
import { KYC_WEBHOOK_PATH } from './modules/kyc/routes.ts';
import { KycService } from './modules/kyc/service.ts';

/**
 * The composition of the third-party providers with a simulator as the default (identity verification, the card
 * issuer, the bank, the travel-rule network, SMS): the real adapter from the configuration, or the provider's simulator (packages/provider-sims)
 * reached over HTTP in this same process, whose webhooks come back to it. Part of the composition root
 * (compose.ts), and the one place of the server that loads a simulator: by a dynamic import, only when the
 * configuration selects it, so that a start with the real providers never loads simulator code (lint rule
 * `simulators-only-in-composition`; the built start in test/integration/built-server.test.ts).
 */

/** The simulators' modules, each loaded on first use (the operator CLI loads them through these too). */
export const loadSimulator = {
  kyc: () => import('@exchange/provider-sims/kyc'),
  cardIssuer: () => import('@exchange/provider-sims/card-issuer'),
  bank: () => import('@exchange/provider-sims/bank'),
  travelRule: () => import('@exchange/provider-sims/travel-rule'),
  sms: () => import('@exchange/provider-sims/sms'),
  mail: () => import('@exchange/provider-sims/mail'),
  schema: () => import('@exchange/provider-sims/schema'),
};

/**
 * The KYC provider: the real Sumsub adapter, pointed at api.sumsub.com, or by default at the KYC simulator mounted
 * in this same process (over HTTP, once the server listens), whose webhooks come back here.
 */
export async function kycFor(
  config: Config,
  db: pg.Pool,
  keys: ServerKeys,
  clock: Clock,
  selfUrl: () => string | null,
  feed: ChangeFeed | undefined,
  log: ModuleLogger,
): Promise<{ service: KycService; simulator: KycSimulator | undefined }> {
  const common = {
    db,
    keys,
    clock,
    levelName: config.kyc.levelName,
    kybLevelName: config.kyc.kybLevelName,
    publicUrl: config.publicUrl,
    log,
  };
  if (config.kyc.provider === 'sumsub' && config.kyc.sumsub) {
    const s = config.kyc.sumsub;
    const service = new KycService({
      ...common,
      provider: createSumsubProvider({ baseUrl: s.baseUrl, appToken: s.appToken, secretKey: s.secretKey }),
      webhookSecret: s.webhookSecret,
      widget: { kind: 'sumsub', sdkUrl: config.kyc.webSdkUrl },
    });
    return { service, simulator: undefined };
  }
  const { createKycSimulator } = await loadSimulator.kyc();
  const simulator = await createKycSimulator({
    db,
    feed,
    publicUrl: config.publicUrl,
    autoApproveSeconds: config.kyc.autoApproveSeconds,
    digestAlgorithm: config.kyc.simDigestAlg,
    webhookUrl: () => {
      const base = selfUrl();
      return base ? `${base}${API.barong}${KYC_WEBHOOK_PATH}` : null;
    },
    log,
  });
  const { credentials } = simulator;
  const service = new KycService({
    ...common,
    provider: createSumsubProvider({
      baseUrl: () => `${selfUrl() ?? 'http://127.0.0.1:0'}${simulator.prefix}`,
      appToken: credentials.appToken,
      secretKey: credentials.secretKey,
      kind: 'simulator',
    }),
    webhookSecret: credentials.webhookSecret,
    widget: { kind: 'simulator', pagePath: `${simulator.prefix}/websdk` },
  });
  return { service, simulator };
}

/**
 * The card issuer: the Marqeta adapter, pointed at Marqeta, or by default at the card issuer simulator mounted in
 * this same process (over HTTP, once the server listens), whose signed webhooks come back here.
 */
export async function cardIssuerFor(
  config: Config,
  db: pg.Pool,
  selfUrl: () => string | null,
  feed: ChangeFeed | undefined,
  log: ModuleLogger,
): Promise<{ issuer: CardIssuer; webhook: WebhookCredentials; simulator: CardSimulator | undefined }> {
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
  const { createCardSimulator } = await loadSimulator.cardIssuer();
  const simulator = await createCardSimulator({
    db,
    feed,
    autoApproveSeconds: config.card.autoApproveSeconds,
    shipSeconds: config.card.simShipSeconds,
    topupSettleSeconds: config.card.topupSettleSeconds,
    eurPerUsdt: config.card.fees.eurPerUsdt,
    webhookUrl: () => {
      const base = selfUrl();
      return base ? `${base}${API.peatio}${CARD_WEBHOOK_PATH}` : null;
    },
    log,
  });
  const { credentials } = simulator;
  const issuer = createMarqetaIssuer({
    baseUrl: () => `${selfUrl() ?? 'http://127.0.0.1:0'}${simulator.api}`,
    username: credentials.apiUsername,
    password: credentials.apiPassword,
    cardProductToken: 'sim_card_product',
    kind: 'simulator',
    timeoutMs: config.card.issuerTimeoutMs,
  });
  return {
    issuer,
    webhook: {
      username: credentials.webhookUsername,
      password: credentials.webhookPassword,
      secret: credentials.webhookSecret,
    },
    simulator,
  };
}

/** No bank adapter for payouts is configured: every payout is refused, nothing paid (the withdrawal fails). */
const NO_PAYOUT_BANK: BankPort = {
  async payout() {
    return { status: 'ERROR', bankRef: '', reason: 'no bank is configured for payouts' };
  },
  async status() {
    return { status: 'ERROR', bankRef: '', reason: 'no bank is configured for payouts' };
  },
};

/**
 * The bank behind SEPA deposits and fiat payouts: by default the bank simulator mounted in this same process
 * (its signed notifications come back here, its payouts pay at once); with BANK_PROVIDER=external, the real
 * bank's notifications signed with BANK_WEBHOOK_SECRET, and no payout adapter yet (payouts are refused).
 */
export async function bankFor(
  config: Config,
  db: pg.Pool,
  selfUrl: () => string | null,
  feed: ChangeFeed | undefined,
  log: ModuleLogger,
): Promise<{ webhookSecret: string; payouts: BankPort; simulator: BankSimulator | undefined }> {
  if (config.bank.provider === 'external' && config.bank.webhookSecret)
    return { webhookSecret: config.bank.webhookSecret, payouts: NO_PAYOUT_BANK, simulator: undefined };
  const { createBankSimulator } = await loadSimulator.bank();
  const simulator = await createBankSimulator({
    db,
    feed,
    collection: config.bank.collection,
    webhookUrl: () => {
      const base = selfUrl();
      return base ? `${base}${API.peatio}${BANK_WEBHOOK_PATH}` : null;
    },
    log,
  });
  return { webhookSecret: simulator.credentials.webhookSecret, payouts: simulator.payouts, simulator };
}

/**
 * The travel-rule network: a travel-rule service's HTTP API at TRAVEL_RULE_URL, or by default the simulator of the
 * counterparty providers mounted in this same process, reached over the same protocol once the server listens.
 */
export async function travelRuleFor(
  config: Config,
  db: pg.Pool,
  selfUrl: () => string | null,
): Promise<{ port: TravelRulePort; simulator: TravelRuleSimulator | undefined }> {
  const { timeoutMs } = config.travelRule;
  if (config.travelRule.protocol === 'http')
    return {
      port: httpTravelRule({ baseUrl: () => config.travelRule.url ?? null, timeoutMs }),
      simulator: undefined,
    };
  const { createTravelRuleSimulator } = await loadSimulator.travelRule();
  // A provider set to time out keeps the request a second longer than the client waits for it.
  const simulator = createTravelRuleSimulator({ db, holdMs: timeoutMs + 1000 });
  const port = httpTravelRule({
    // The settings are read at each request, as the wallet reads them: a service configured at run time (a test
    // pointing it where nothing listens) is asked instead of the simulator.
    baseUrl: () => {
      if (config.travelRule.protocol === 'http') return config.travelRule.url ?? null;
      const self = selfUrl();
      return self ? `${self}${simulator.prefix}` : null;
    },
    timeoutMs,
  });
  return { port, simulator };
}

/** Where a simulator mounted in this process is asked before the server listens (see {@link inProcessFetch}). */
export const IN_PROCESS = 'http://in-process.invalid';

/**
 * fetch, but a URL under {@link IN_PROCESS} goes to `app` by Fastify's inject (the same routes, parsers and
 * hooks, without a socket): a server driven by inject (the tests) still reaches the SMS simulator mounted in it.
 */
export function inProcessFetch(app: () => FastifyInstance | undefined): typeof fetch {
  return async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    const local = app();
    if (!url.startsWith(IN_PROCESS) || !local) return fetch(input, init);
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const answer = await local.inject({
      method: (init?.method ?? 'GET') as 'GET' | 'POST',
      url: url.slice(IN_PROCESS.length),
      headers,
      ...(typeof init?.body === 'string' ? { payload: init.body } : {}),
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.headers))
      if (value !== undefined)
        responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : String(value));
    return new Response(answer.statusCode === 204 ? null : answer.rawPayload, {
      status: answer.statusCode,
      headers: responseHeaders,
    });
  };
}

/**
 * Text messages: by default (SMS_PROVIDER=simulator) sent through the Twilio adapter to the SMS simulator mounted
 * in this process (over HTTP once the server listens, by inject before), whose phone inbox the dev outbox reads;
 * with SMS_PROVIDER=twilio to Twilio's API; with SMS_PROVIDER=outbox only kept in the outbox table (the dev outbox
 * shows their codes from there). Sent messages are kept as their template with the provider's message SID, never
 * with their secret. Their status callbacks come to {@link SMS_STATUS_PATH}: with Twilio when TWILIO_STATUS_CALLBACK
 * names it, from the simulator at the app's own address once it listens (`status`: how they are checked).
 */
export async function smsFor(
  config: Config,
  db: pg.Pool,
  devOutboxKeys: ServerKeys | undefined,
  clock: Clock,
  selfUrl: () => string | null,
  self: () => FastifyInstance | undefined,
  feed?: ChangeFeed,
  log?: ModuleLogger,
): Promise<{
  sms: SmsPort;
  inbox: SmsInbox | undefined;
  simulator: SmsSimulator | undefined;
  status: SmsStatusWebhook | undefined;
}> {
  const { provider, timeoutMs, twilio } = config.sms;
  if (provider === 'outbox')
    return {
      sms: createOutboxSms(db, devOutboxKeys),
      inbox: undefined,
      simulator: undefined,
      status: undefined,
    };
  const record = (message: SmsMessage, sent: { sid: string }) =>
    recordOutgoing(db, 'sms', { ...message, subject: '' }, { sentAt: dateOf(clock), providerRef: sent.sid });
  if (provider === 'twilio' && twilio) {
    const sms = createTwilioSms({ ...twilio, timeoutMs, record });
    const status = twilio.statusCallback
      ? { authToken: twilio.authToken, url: twilio.statusCallback }
      : undefined;
    return { sms, inbox: undefined, simulator: undefined, status };
  }
  const { createSmsSimulator } = await loadSimulator.sms();
  const simulator = await createSmsSimulator({ db, feed, log });
  const { credentials } = simulator;
  const baseUrl = () => `${selfUrl() ?? IN_PROCESS}${simulator.prefix}`;
  const local = inProcessFetch(self);
  const sms = createTwilioSms({
    baseUrl,
    accountSid: credentials.accountSid,
    authToken: credentials.authToken,
    sender: { from: credentials.from },
    // The simulator posts each status change back to this app, once it listens (a test app driven by inject gets none).
    statusCallback: () => {
      const base = selfUrl();
      return base ? `${base}${API.barong}${SMS_STATUS_PATH}` : null;
    },
    timeoutMs,
    fetch: local,
    record,
  });
  // The phone inbox holds what the developer tools show: only with DEV_TOOLS on.
  const inbox = devOutboxKeys
    ? simulatorInbox({
        baseUrl,
        accountSid: credentials.accountSid,
        authToken: credentials.authToken,
        fetch: local,
      })
    : undefined;
  // Signed for the address the simulator posted to: the app's own, which it reads off the request.
  return { sms, inbox, simulator, status: { authToken: credentials.authToken, url: null } };
}

/** The travel-rule simulator's desk for the operator CLI (`travel-rule provider add`, …). */
export async function offlineTravelRuleDesk(config: Config, db: pg.Pool): Promise<TravelRuleNetworkDesk> {
  const { createTravelRuleSimulator } = await loadSimulator.travelRule();
  return createTravelRuleSimulator({ db, holdMs: config.travelRule.timeoutMs + 1000 }).desk;
}

/**
 * The KYC simulator for the operator CLI (`kyc approve <email>`): its reviewer's desk queues the decision's
 * webhook; the running app delivers it.
 */
export async function offlineKycSimulator(config: Config, db: pg.Pool): Promise<KycSimulator> {
  const { createKycSimulator } = await loadSimulator.kyc();
  return createKycSimulator({
    db,
    publicUrl: config.publicUrl,
    autoApproveSeconds: config.kyc.autoApproveSeconds,
    digestAlgorithm: config.kyc.simDigestAlg,
    webhookUrl: () => null,
  });
}

/** The card issuer simulator for the operator CLI (`card review`, `card status`): as {@link offlineKycSimulator}. */
export async function offlineCardSimulator(config: Config, db: pg.Pool): Promise<CardSimulator> {
  const { createCardSimulator } = await loadSimulator.cardIssuer();
  return createCardSimulator({
    db,
    autoApproveSeconds: config.card.autoApproveSeconds,
    shipSeconds: config.card.simShipSeconds,
    topupSettleSeconds: config.card.topupSettleSeconds,
    eurPerUsdt: config.card.fees.eurPerUsdt,
    webhookUrl: () => null,
  });
}
