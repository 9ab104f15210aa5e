import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { API, ERRORS } from '@exchange/shared';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { MountedSimulator } from './adapters/simulators.ts';
import type { AppDeps } from './app-deps.ts';
import { TestClock } from './clock.ts';
import { SAFE_METHODS } from './http/auth.ts';
import { installBodyEncryption } from './http/body-encryption.ts';
import { allowedMethods, frameworkErrorHandler, installErrorHandling, isApiPath } from './http/errors.ts';
import { acceptFormBodies, parseFormBody } from './http/form-body.ts';
import { lazyChildLogger } from './http/lazy-logger.ts';
import { collectRoutes } from './http/openapi.ts';
import { redactSecrets } from './http/redact.ts';
import { recordResponses } from './http/response-recorder.ts';
import { apiSecurityHeaders, helmetHeaders } from './http/security-headers.ts';
import { memoryRateLimitStore, sharedRateLimitStore } from './http/shared-limits.ts';
import { adminClosureRoutes } from './modules/account-closure/admin-routes.ts';
import { accountClosureRoutes } from './modules/account-closure/routes.ts';
import { adminRoutes } from './modules/admin/routes.ts';
import { apiDocsRoutes } from './modules/api-docs/routes.ts';
import { apiKeyRoutes } from './modules/api-keys/routes.ts';
import {
  adminBankTransferRoutes,
  bankDepositRoutes,
  bankWebhookRoutes,
} from './modules/bank-deposits/routes.ts';
import { companyRoutes } from './modules/business/company-routes.ts';
import { cardDevRoutes } from './modules/card/dev-routes.ts';
import { cardRoutes, cardWebhookRoutes } from './modules/card/routes.ts';
import { adminMonitoringRoutes } from './modules/compliance/monitoring/routes.ts';
import { adminSanctionsRoutes } from './modules/compliance/sanctions/admin-routes.ts';
import { adminTravelRuleRoutes } from './modules/compliance/travel-rule/incoming-routes.ts';
import { travelRuleRoutes } from './modules/compliance/travel-rule/routes.ts';
import { contactRoutes } from './modules/contact/routes.ts';
import { adminCustodyRoutes } from './modules/custody/console-routes.ts';
import { accountSolvencyRoutes, adminSolvencyRoutes } from './modules/custody/solvency-routes.ts';
import { dataExportRoutes } from './modules/data-export/routes.ts';
import { clockRoutes } from './modules/dev/clock-routes.ts';
import { devRoutes } from './modules/dev/routes.ts';
import { authRoutes } from './modules/identity/auth-routes.ts';
import { ipWhitelistRoutes } from './modules/identity/ip-whitelist-routes.ts';
import { userResourceRoutes } from './modules/identity/resource-routes.ts';
import { identityRoutes } from './modules/identity/routes.ts';
import { sessionRoutes } from './modules/identity/session-routes.ts';
import { smsStatusRoutes } from './modules/identity/sms-status-routes.ts';
import { kycResourceRoutes, kycWebhookRoutes } from './modules/kyc/routes.ts';
import { marketDataRoutes } from './modules/market-data/routes.ts';
import { memberRoutes } from './modules/members/routes.ts';
import { createMetrics } from './modules/metrics/registry.ts';
import { payoutRoutes } from './modules/payouts/routes.ts';
import { barongPublicRoutes, peatioPublicRoutes } from './modules/public/routes.ts';
import { rangerRoutes } from './modules/ranger/routes.ts';
import { tradingRoutes } from './modules/trading/routes.ts';
import { walletDevRoutes } from './modules/wallet/dev-routes.ts';
import { beneficiaryRemovalRoutes } from './modules/wallet/removal-routes.ts';
import { walletRoutes } from './modules/wallet/routes.ts';
import { fastifyTrustProxy } from './net/trust-proxy.ts';

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
      named('barong', async (barong) => {
        acceptFormBodies(barong);
        await barongPublicRoutes(barong, deps);
        await contactRoutes(barong, deps);
        await identityRoutes(barong, deps);
        await barong.register(named('authRoutes', (auth) => authRoutes(auth, deps)));
        await barong.register(
          named('resource', async (resource) => {
            await userResourceRoutes(resource, deps);
            await apiKeyRoutes(resource, deps);
            await sessionRoutes(resource, deps);
            await dataExportRoutes(resource, deps);
            await accountClosureRoutes(resource, deps);
            await ipWhitelistRoutes(resource, deps);
            await resource.register(named('kycResourceRoutes', (kyc) => kycResourceRoutes(kyc, deps)));
            await resource.register(named('companyRoutes', (company) => companyRoutes(company, deps)));
          }),
        );
        await barong.register(named('kycWebhookRoutes', (webhooks) => kycWebhookRoutes(webhooks, deps)));
        await barong.register(named('smsStatusRoutes', (webhooks) => smsStatusRoutes(webhooks, deps)));
        if (deps.config.devTools) await devRoutes(barong, deps);
      }),
      { prefix: API.barong },
    );
  await app.register(
    named('peatio', async (peatio) => {
      acceptFormBodies(peatio);
      await peatioPublicRoutes(peatio, deps);
      if (!api) return;
      await marketDataRoutes(peatio, deps);
      await peatio.register(named('memberRoutes', (account) => memberRoutes(account, deps)));
      await peatio.register(named('tradingRoutes', (trading) => tradingRoutes(trading, deps)));
      await peatio.register(
        named('walletRoutes', (account) =>
          walletRoutes(account, deps, [(section, limits) => travelRuleRoutes(section, deps, limits)]),
        ),
      );
      await peatio.register(named('payoutRoutes', (payouts) => payoutRoutes(payouts, deps)));
      if (deps.config.baseAppCompat)
        await peatio.register(
          named('beneficiaryRemovalRoutes', (removal) => beneficiaryRemovalRoutes(removal, deps)),
        );
      await peatio.register(named('cardRoutes', (card) => cardRoutes(card, deps)));
      await peatio.register(
        named('accountSolvencyRoutes', (account) => accountSolvencyRoutes(account, deps)),
      );
      await peatio.register(named('cardWebhookRoutes', (webhooks) => cardWebhookRoutes(webhooks, deps)));
      await peatio.register(named('bankDepositRoutes', (account) => bankDepositRoutes(account, deps)));
      await peatio.register(named('bankWebhookRoutes', (webhooks) => bankWebhookRoutes(webhooks, deps)));
    }),
    { prefix: API.peatio },
  );
  if (api)
    await app.register(
      named('adminRoutes', (admin) =>
        adminRoutes(admin, deps, {
          guarded: [
            (section, staff) => adminBankTransferRoutes(section, deps, staff),
            (section, staff) => adminClosureRoutes(section, deps, staff),
            (section, staff) => adminSanctionsRoutes(section, deps, staff),
            (section, staff) => adminMonitoringRoutes(section, deps, staff),
            (section, staff) => adminTravelRuleRoutes(section, deps, staff),
          ],
          more: [
            (section) => adminSolvencyRoutes(section, deps),
            (section) => adminCustodyRoutes(section, deps),
          ],
        }),
      ),
      { prefix: API.admin },
    );
  // The test-only clock control: never registered unless NODE_ENV=test (clock-routes.ts).
  const clock = deps.clock;
  if (api && deps.config.env === 'test' && clock instanceof TestClock)
    await app.register(
      named('clockRoutes', (dev) => clockRoutes(dev, clock)),
      { prefix: API.dev },
    );
  if (api && deps.config.devTools) {
    await app.register(
      named('walletDevRoutes', (dev) => walletDevRoutes(dev, deps)),
      { prefix: API.dev },
    );
    await app.register(
      named('cardDevRoutes', (dev) => cardDevRoutes(dev, deps)),
      { prefix: API.dev },
    );
  }
  if (streams)
    await app.register(
      named('rangerRoutes', (ranger) => rangerRoutes(ranger, deps)),
      { prefix: API.ranger },
    );
  // The providers' simulators composed into this process (compose-providers.ts): their APIs where the api role
  // answers, their webhooks stopped before the server closes (a pass sending to this server must not outlive it).
  const mount = async (simulator: MountedSimulator<unknown> | undefined) => {
    if (!simulator) return;
    if (api)
      await app.register(
        named(`simulator ${simulator.prefix}`, (sim) => simulator.routes(sim)),
        { prefix: simulator.prefix },
      );
    app.addHook('preClose', () => simulator.delivery.stop());
  };
  await mount(deps.kycSimulator);
  await mount(deps.travelRuleSimulator);
  await mount(deps.cardSimulator);
  await mount(deps.bankSimulator);
  await mount(deps.smsSimulator);
  const mailbox = deps.mailSimulator;
  if (api && mailbox)
    await app.register(
      named('mail simulator', (sim) => mailbox.routes(sim)),
      { prefix: mailbox.prefix },
    );

  if (api) {
    apiDocsRoutes(app, routes, deps.config.devTools);
    await serveWebApp(app, deps.config.webDist);
  }
  return app;
}

/**
 * How long a browser keeps a file of the build's `assets` folder: the bundler names each by a hash of its content,
 * so a name never gets other bytes and a new release names new files. Without it every page load asked again for
 * each of some thirty scripts (answered 304).
 */
const HASHED_ASSET_CACHE = 'public, max-age=31536000, immutable';

/**
 * Serves the built web app; any other non-API GET gets index.html (client-side routing), never cached, so that a
 * release reaches the next load.
 */
async function serveWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  const indexFile = path.join(webDist, 'index.html');
  const indexHtml = existsSync(indexFile) ? await readFile(indexFile) : undefined;
  const hashedAssets = path.join(webDist, 'assets') + path.sep;
  if (indexHtml)
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      setHeaders: (reply, file) => {
        if (file.startsWith(hashedAssets)) reply.header('cache-control', HASHED_ASSET_CACHE);
      },
    });
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

/**
 * Gives a plugin the name fastify reports it by. For an unnamed plugin (an arrow function, as every plugin here)
 * fastify looks for a CommonJS module exporting it, scanning the whole module cache twice per registration: in a
 * test process, with thousands of modules loaded, that was about a fifth of a second of every app's start.
 */
function named<T extends (instance: FastifyInstance) => unknown>(name: string, plugin: T): T {
  Object.defineProperty(plugin, Symbol.for('fastify.display-name'), { value: name });
  return plugin;
}
