import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { API, ERRORS } from '@exchange/shared';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyRequest,
  LogController,
} from 'fastify';
import helmet from 'helmet';
import type { NatsConnection } from 'nats';
import type pg from 'pg';
import type { BankWebhookDelivery } from './adapters/bank/simulator/delivery.ts';
import {
  BANK_SIMULATOR_PREFIX,
  type BankSimulatorDeps,
  bankSimulatorRoutes,
} from './adapters/bank/simulator/routes.ts';
import type { CaptchaPort } from './adapters/captcha/port.ts';
import type { CardIssuer } from './adapters/card-issuer/port.ts';
import type { CardWebhookDelivery } from './adapters/card-issuer/simulator/delivery.ts';
import {
  CARD_SIMULATOR_API,
  type CardSimulatorDeps,
  cardSimulatorRoutes,
} from './adapters/card-issuer/simulator/routes.ts';
import type { WebhookDelivery } from './adapters/kyc/simulator/delivery.ts';
import { SIMULATOR_PREFIX, type SimulatorDeps, simulatorRoutes } from './adapters/kyc/simulator/routes.ts';
import type { MailPort } from './adapters/mail/port.ts';
import type { OutboxRetention } from './adapters/mail/retention.ts';
import type { SmsPort } from './adapters/sms/port.ts';
import {
  TRAVEL_RULE_SIM_PREFIX,
  travelRuleSimulatorRoutes,
} from './adapters/travel-rule/simulator/routes.ts';
import { type Clock, TestClock } from './clock.ts';
import type { Config } from './config.ts';
import type { Core } from './core/index.ts';
import { SAFE_METHODS } from './http/auth.ts';
import { type BodyKey, installBodyEncryption } from './http/body-encryption.ts';
import type { DiskGuard } from './http/disk-guard.ts';
import { allowedMethods, frameworkErrorHandler, installErrorHandling, isApiPath } from './http/errors.ts';
import { acceptFormBodies, parseFormBody } from './http/form-body.ts';
import { lazyChildLogger } from './http/lazy-logger.ts';
import { collectRoutes } from './http/openapi.ts';
import { type RecordedResponse, recordResponses } from './http/response-recorder.ts';
import { memoryRateLimitStore, sharedRateLimitStore } from './http/shared-limits.ts';
import type { ModuleLogger } from './log.ts';
import { accountClosureRoutes } from './modules/account-closure/routes.ts';
import { adminRoutes } from './modules/admin/routes.ts';
import { apiDocsRoutes } from './modules/api-docs/routes.ts';
import type { ApiKeyAuthenticator } from './modules/api-keys/hmac.ts';
import { apiKeyRoutes } from './modules/api-keys/routes.ts';
import { bankDepositRoutes, bankWebhookRoutes } from './modules/bank-deposits/routes.ts';
import type { BankDepositDeps } from './modules/bank-deposits/service.ts';
import { companyRoutes } from './modules/business/company-routes.ts';
import { cardDevRoutes } from './modules/card/dev-routes.ts';
import type { Cards } from './modules/card/index.ts';
import { cardRoutes, cardWebhookRoutes } from './modules/card/routes.ts';
import { contactRoutes } from './modules/contact/routes.ts';
import { accountSolvencyRoutes } from './modules/custody/solvency-routes.ts';
import { dataExportRoutes } from './modules/data-export/routes.ts';
import { clockRoutes } from './modules/dev/clock-routes.ts';
import { devRoutes } from './modules/dev/routes.ts';
import { authRoutes } from './modules/identity/auth-routes.ts';
import type { ServerKeys } from './modules/identity/crypto.ts';
import { ipWhitelistRoutes } from './modules/identity/ip-whitelist-routes.ts';
import type { JwtIssuer } from './modules/identity/jwt.ts';
import { userResourceRoutes } from './modules/identity/resource-routes.ts';
import { identityRoutes } from './modules/identity/routes.ts';
import { sessionRoutes } from './modules/identity/session-routes.ts';
import type { SessionStore } from './modules/identity/sessions.ts';
import type { UserDirectory } from './modules/identity/user-directory.ts';
import { kycResourceRoutes, kycWebhookRoutes } from './modules/kyc/routes.ts';
import type { KycService } from './modules/kyc/service.ts';
import { marketDataRoutes } from './modules/market-data/routes.ts';
import type { MarketData } from './modules/market-data/service.ts';
import { memberRoutes } from './modules/members/routes.ts';
import { createMetrics } from './modules/metrics/registry.ts';
import { payoutRoutes } from './modules/payouts/routes.ts';
import { barongPublicRoutes, peatioPublicRoutes } from './modules/public/routes.ts';
import type { StreamPublisher } from './modules/ranger/forwarded.ts';
import type { StreamHub } from './modules/ranger/hub.ts';
import { rangerRoutes } from './modules/ranger/routes.ts';
import { tradingRoutes } from './modules/trading/routes.ts';
import { walletDevRoutes } from './modules/wallet/dev-routes.ts';
import type { Wallet } from './modules/wallet/index.ts';
import { beneficiaryRemovalRoutes } from './modules/wallet/removal-routes.ts';
import { walletRoutes } from './modules/wallet/routes.ts';
import type { CountryLookup } from './net/geo-country.ts';
import { fastifyTrustProxy } from './net/trust-proxy.ts';

/** The signed-in user of a request, as far as the server can tell. */
export interface RequestUser {
  id: string;
  email: string;
}

/** Everything the HTTP edge needs; built in main.ts or by tests. */
export interface AppDeps {
  config: Config;
  db: pg.Pool;
  /** Where time comes from (clock.ts): a TestClock with NODE_ENV=test, which its test-only control moves. */
  clock: Clock;
  mail: MailPort;
  sms: SmsPort;
  captcha: CaptchaPort;
  keys: ServerKeys;
  sessions: SessionStore;
  /** Users as requests see them, cached while the change feed is heard. */
  users: UserDirectory;
  apiKeys: ApiKeyAuthenticator;
  /** Barong's session JWTs (RS256): issued by `/api/v2/barong/auth/*`, taken by the Ranger gateway. */
  jwt: JwtIssuer;
  bodyKey: BodyKey;
  /** The exchange core: the only way balances and orders change. */
  core: Core;
  /** Committed order books, tickers, candles and the streams built from them. */
  marketData: MarketData;
  hub: StreamHub;
  /**
   * Publishes stream messages made by a request (e.g. `favmarket`): the hub itself, or in a split deployment the
   * NATS forwarder that brings them to every ws process.
   */
  streams: StreamPublisher;
  /** Deposits, withdrawals and the chains behind them. */
  wallet: Wallet;
  /** Identity verification through the configured provider. */
  kyc: KycService;
  /** The built-in Sumsub-compatible simulator, when it is the provider (the default). */
  kycSimulator?: { routes: SimulatorDeps; delivery: WebhookDelivery };
  /** The card issuer (Marqeta, or by default the built-in simulator reached over HTTP). */
  cardIssuer: CardIssuer;
  /** The card suite: holders, cards, their fees and the issuer's webhooks. */
  cards: Cards;
  /** The built-in Marqeta-shaped issuer simulator, when it is the issuer (the default). */
  cardSimulator?: { routes: CardSimulatorDeps; delivery: CardWebhookDelivery };
  /** EUR deposits by SEPA transfer: the collection account, the bank's webhook secret, crediting. */
  bankDeposits: BankDepositDeps;
  /** The built-in bank simulator (the collection account's incoming transfers and their notifications). */
  bankSimulator?: { routes: BankSimulatorDeps; delivery: BankWebhookDelivery };
  /** Where the request log goes (tests read it); stdout when absent. */
  logStream?: { write(line: string): void };
  /** The NATS connection of a split deployment (its state is a metric). */
  nats?: NatsConnection;
  /** The process's logger (see log.ts): the HTTP requests log through its `http` child. */
  logger: ModuleLogger;
  supportEmail: string;
  /** The country of a login's address (GEOIP_COUNTRY_DB), for the new-country notice; none without a database. */
  geoCountry: CountryLookup;
  /** Deletes records of sent messages after MAIL_RETENTION_DAYS (a background job). */
  outboxRetention: OutboxRetention;
  /** Refuses new orders and withdrawals while the data folder's disk is nearly full. */
  diskGuard: DiskGuard;
  /** Resolves the session's user for routes that work with or without one (e.g. contact). */
  currentUser(request: FastifyRequest): Promise<RequestUser | null>;
  /** Tests only: sees every answer as sent (the contract tests check them against the API documents). */
  responseRecorder?: (answer: RecordedResponse) => void;
}

/** The content security policy; with the real Sumsub provider its WebSDK script, frames and calls are allowed. */
function contentSecurityPolicy(config: Config) {
  const sumsub =
    config.kyc.provider === 'sumsub' ? [new URL(config.kyc.webSdkUrl).origin, 'https://*.sumsub.com'] : [];
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...sumsub],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:', ...sumsub],
    connectSrc: ["'self'", 'ws:', 'wss:', ...sumsub],
    frameSrc: ["'self'", ...sumsub],
    workerSrc: ["'self'", 'blob:'],
    fontSrc: ["'self'", 'data:'],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
  };
}

/**
 * The headers helmet sets, read once from a stand-in response: helmet's answer depends only on the configuration,
 * and setting twelve headers one by one through its middleware chain cost a twentieth of a request's CPU.
 */
async function helmetHeaders(config: Config): Promise<Record<string, string>> {
  const middleware = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(config) },
    crossOriginEmbedderPolicy: false,
  });
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  await new Promise<void>((resolve, reject) =>
    middleware(
      {} as Parameters<typeof middleware>[0],
      response as unknown as Parameters<typeof middleware>[1],
      (err?: unknown) => (err ? reject(err) : resolve()),
    ),
  );
  return headers;
}

/**
 * The security headers of API answers (JSON, and the files the operator console opens inline), after OWASP's REST
 * Security Cheat Sheet: nothing may run, load or frame in them (`default-src 'none'`), they are never sniffed or
 * embedded elsewhere, and HSTS holds. The headers that only a rendered document uses (COOP, Origin-Agent-Cluster,
 * DNS prefetch, X-Download-Options, cross-domain policies, X-XSS-Protection) are left out: on about 1 KB of headers
 * per answer they were half its bytes, and the kernel's time to send them was a third of a warm request.
 */
function apiSecurityHeaders(documentHeaders: Record<string, string>): Record<string, string> {
  const kept = [
    'strict-transport-security',
    'x-content-type-options',
    'cross-origin-resource-policy',
    'referrer-policy',
  ];
  const headers: Record<string, string> = {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-frame-options': 'DENY',
  };
  for (const name of kept) {
    const value = documentHeaders[name];
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}

/** Builds the Fastify app: APIs under their OpenDAX prefixes, the ranger websocket and the web app. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    // Typed as Fastify's base logger, so the app keeps the plain FastifyInstance type every module takes.
    loggerInstance: deps.logger.child({ module: 'http' }) as FastifyBaseLogger,
    trustProxy: fastifyTrustProxy(deps.config.trustProxy),
    bodyLimit: 1 << 20,
    genReqId: () => crypto.randomUUID(),
    requestIdHeader: false,
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyChildLogger,
    frameworkErrors: frameworkErrorHandler,
    // Query strings read as forms are: `state[]=wait&state[]=done` (BaseApp's lists) is the list `state`.
    routerOptions: { querystringParser: parseFormBody },
  });
  // Every route from here on, with the docs it declares: the OpenAPI documents are built from them.
  const routes = collectRoutes(app);
  if (deps.responseRecorder) recordResponses(app, deps.responseRecorder);
  // The entry (and its redaction) is built only when it is written: at the default level only failures are.
  const logsEveryRequest = deps.config.logLevel === 'debug' || deps.config.logLevel === 'trace';
  app.addHook('onResponse', (request, reply, done) => {
    const failed = reply.statusCode >= 500;
    if (failed || logsEveryRequest) {
      const entry = {
        method: request.method,
        url: redactSecrets(request.url),
        status: reply.statusCode,
        ms: reply.elapsedTime,
      };
      if (failed) request.log.error(entry, 'request failed');
      else request.log.debug(entry, 'request completed');
    }
    done();
  });
  // Security headers, computed once: the web app's documents get helmet's, the API's JSON a set of its own.
  const documentHeaders = await helmetHeaders(deps.config);
  const apiHeaders = apiSecurityHeaders(documentHeaders);
  // When the request reached this process (the first hook): a signed request's nonce is measured against it.
  app.decorateRequest('receivedAt', 0);
  app.addHook('onRequest', (request, reply, done) => {
    request.receivedAt = deps.clock.now();
    reply.headers(request.url.startsWith('/api/') ? apiHeaders : documentHeaders);
    done();
  });
  installErrorHandling(app);
  deps.diskGuard.install(app);
  // A browser's change to its own user (2FA, phone, profile, password) is seen by its next request, which may come
  // before the change feed's notification: this process forgets the user before it answers.
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (request.auth?.via === 'session' && !SAFE_METHODS.has(request.method))
      deps.users.forget(request.auth.user.id);
    done(null, payload);
  });
  // Before the routes, so that the request metrics hook sees all of them.
  app.decorate(
    'metrics',
    createMetrics({
      app,
      db: deps.db,
      core: deps.core,
      hub: deps.hub,
      wallet: deps.wallet,
      dataDir: deps.config.dataDir,
      disk: deps.diskGuard,
      ...(deps.nats ? { nats: deps.nats } : {}),
      ...(deps.config.backup.dir ? { backupDir: deps.config.backup.dir } : {}),
    }),
  );
  await app.register(fastifyCookie);
  await app.register(fastifyRateLimit, {
    global: false,
    enableDraftSpec: false,
    allowList: () => !deps.config.rateLimits,
    // Several api processes must count together: the counters live in PostgreSQL then.
    store: deps.config.split ? sharedRateLimitStore(deps.db, deps.clock) : memoryRateLimitStore(deps.clock),
    errorResponseBuilder: (_req, ctx) => ({ statusCode: ctx.statusCode, errors: [ERRORS.rateLimited] }),
  });
  await app.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } });
  installBodyEncryption(app, deps.bodyKey, API.barong);
  // A process serves what its roles say (ROLE): the APIs and the web app (api), the streams (ws); every
  // process answers the health routes.
  const api = deps.config.roles.has('api');
  const streams = deps.config.roles.has('ws');

  if (api)
    await app.register(
      async (barong) => {
        acceptFormBodies(barong);
        await barongPublicRoutes(barong, deps);
        await contactRoutes(barong, deps);
        await identityRoutes(barong, deps);
        await barong.register((auth) => authRoutes(auth, deps));
        await barong.register(async (resource) => {
          await userResourceRoutes(resource, deps);
          await apiKeyRoutes(resource, deps);
          await sessionRoutes(resource, deps);
          await dataExportRoutes(resource, deps);
          await accountClosureRoutes(resource, deps);
          await ipWhitelistRoutes(resource, deps);
          await resource.register((kyc) => kycResourceRoutes(kyc, deps));
          await resource.register((company) => companyRoutes(company, deps));
        });
        await barong.register((webhooks) => kycWebhookRoutes(webhooks, deps));
        if (deps.config.devTools) await devRoutes(barong, deps);
      },
      { prefix: API.barong },
    );
  await app.register(
    async (peatio) => {
      acceptFormBodies(peatio);
      await peatioPublicRoutes(peatio, deps);
      if (!api) return;
      await marketDataRoutes(peatio, deps);
      await peatio.register((account) => memberRoutes(account, deps));
      await peatio.register((trading) => tradingRoutes(trading, deps));
      await peatio.register((account) => walletRoutes(account, deps));
      await peatio.register((payouts) => payoutRoutes(payouts, deps));
      if (deps.config.baseAppCompat)
        await peatio.register((removal) => beneficiaryRemovalRoutes(removal, deps));
      await peatio.register((card) => cardRoutes(card, deps));
      await peatio.register((account) => accountSolvencyRoutes(account, deps));
      await peatio.register((webhooks) => cardWebhookRoutes(webhooks, deps));
      await peatio.register((account) => bankDepositRoutes(account, deps));
      await peatio.register((webhooks) => bankWebhookRoutes(webhooks, deps));
    },
    { prefix: API.peatio },
  );
  if (api) await app.register((admin) => adminRoutes(admin, deps), { prefix: API.admin });
  // The test-only clock control: never registered unless NODE_ENV=test (clock-routes.ts).
  const clock = deps.clock;
  if (api && deps.config.env === 'test' && clock instanceof TestClock)
    await app.register((dev) => clockRoutes(dev, clock), { prefix: API.dev });
  if (api && deps.config.devTools) {
    await app.register((dev) => walletDevRoutes(dev, deps), { prefix: API.dev });
    await app.register((dev) => cardDevRoutes(dev, deps), { prefix: API.dev });
  }
  if (streams) await app.register((ranger) => rangerRoutes(ranger, deps), { prefix: API.ranger });
  const simulator = deps.kycSimulator;
  if (simulator) {
    if (api)
      await app.register((sim) => simulatorRoutes(sim, simulator.routes), { prefix: SIMULATOR_PREFIX });
    // Before the server closes: a pass sending a webhook to this server must not outlive it.
    app.addHook('preClose', () => simulator.delivery.stop());
  }
  if (api && deps.config.travelRule.protocol === 'simulator')
    await app.register(
      (sim) =>
        travelRuleSimulatorRoutes(sim, { db: deps.db, holdMs: deps.config.travelRule.timeoutMs + 1000 }),
      { prefix: TRAVEL_RULE_SIM_PREFIX },
    );
  const cardSimulator = deps.cardSimulator;
  if (cardSimulator) {
    if (api)
      await app.register((sim) => cardSimulatorRoutes(sim, cardSimulator.routes), {
        prefix: CARD_SIMULATOR_API,
      });
    app.addHook('preClose', () => cardSimulator.delivery.stop());
  }
  const bankSimulator = deps.bankSimulator;
  if (bankSimulator) {
    if (api)
      await app.register((sim) => bankSimulatorRoutes(sim, bankSimulator.routes), {
        prefix: BANK_SIMULATOR_PREFIX,
      });
    app.addHook('preClose', () => bankSimulator.delivery.stop());
  }

  if (api) {
    apiDocsRoutes(app, routes, deps.config.devTools);
    await serveWebApp(app, deps.config.webDist);
  }
  return app;
}

/** A URL for the log without card numbers: `card_number` values and any run of 12-19 digits are redacted. */
export function redactCardNumbers(url: string): string {
  return url
    .replace(/(card_number=)[^&]*/gi, '$1[redacted]')
    .replace(/(?<!\d)\d{12,19}(?!\d)/g, (digits) => `****${digits.slice(-4)}`);
}

/**
 * A URL fit for the log: card numbers as {@link redactCardNumbers} leaves them, and without the password-reset
 * token of a reset link (`/password-reset/<token>`, `verify_access_token?access_token=`), which would let a
 * reader of the log set the password while the link is valid.
 */
export function redactSecrets(url: string): string {
  return redactCardNumbers(url)
    .replace(/(\/password-reset\/)[^/?#]+/gi, '$1[redacted]')
    .replace(/([?&]access_token=)[^&#]*/gi, '$1[redacted]');
}

/** Serves the built web app; any other non-API GET gets index.html (client-side routing). */
async function serveWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  const indexFile = path.join(webDist, 'index.html');
  const indexHtml = existsSync(indexFile) ? await readFile(indexFile) : undefined;
  if (indexHtml) await app.register(fastifyStatic, { root: webDist, wildcard: false, index: false });
  app.setNotFoundHandler(async (request, reply) => {
    const allow = isApiPath(request.url) ? allowedMethods(app, request.method, request.url) : [];
    if (allow.length > 0) {
      return reply
        .status(405)
        .header('allow', allow.join(', '))
        .send({ errors: [ERRORS.methodNotAllowed] });
    }
    if (isApiPath(request.url) || request.method !== 'GET' || !indexHtml) {
      return reply.status(404).send({ errors: [ERRORS.routeNotFound] });
    }
    return reply.type('text/html').header('cache-control', 'no-cache').send(indexHtml);
  });
}
