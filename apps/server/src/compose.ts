import type { FastifyInstance } from 'fastify';
import type { NatsConnection } from 'nats';
import type pg from 'pg';
import { createAltchaCaptcha } from './adapters/captcha/altcha.ts';
import { type CaptchaPort, noCaptcha } from './adapters/captcha/port.ts';
import { createRecaptcha } from './adapters/captcha/recaptcha.ts';
import type { KeyScheme } from './adapters/chains/port.ts';
import { NO_SIGNER, type SignerPort } from './adapters/chains/signing.ts';
import { OutboxRetention } from './adapters/mail/retention.ts';
import { buildApp } from './app.ts';
import type { AppDeps } from './app-deps.ts';
import { type Clock, systemClock, TestClock } from './clock.ts';
import { givenMail, mailFor } from './compose-mail.ts';
import { bankFor, cardIssuerFor, kycFor, smsFor, travelRuleFor } from './compose-providers.ts';
import type { Config } from './config.ts';
import { startCore } from './core/index.ts';
import { ChangeFeed } from './db/change-feed.ts';
import { sealPlainIdentityData } from './db/seal-backfill.ts';
import { currentUserResolver } from './http/auth.ts';
import { loadBodyKey } from './http/body-encryption.ts';
import { DiskGuard } from './http/disk-guard.ts';
import { createLogger } from './log.ts';
import { RetentionErasure } from './modules/account-closure/erasure.ts';
import { ClosureSweep, closureService } from './modules/account-closure/job.ts';
import { ApiKeyAuthenticator } from './modules/api-keys/hmac.ts';
import { Cards } from './modules/card/index.ts';
import { transactionMonitor } from './modules/compliance/monitoring/monitor.ts';
import { SanctionsScreening } from './modules/compliance/sanctions/screening.ts';
import { loadServerKeys } from './modules/identity/crypto.ts';
import { JwtIssuer } from './modules/identity/jwt.ts';
import { SessionSweep } from './modules/identity/session-sweep.ts';
import { DEFAULT_SESSION_POLICY, SessionStore } from './modules/identity/sessions.ts';
import { UserDirectory } from './modules/identity/user-directory.ts';
import { MarketData } from './modules/market-data/service.ts';
import { forwardingPublisher, receiveForwarded } from './modules/ranger/forwarded.ts';
import { StreamHub } from './modules/ranger/hub.ts';
import { createSignerClient } from './modules/signer/client.ts';
import { Wallet } from './modules/wallet/index.ts';
import { countryLookupFor } from './net/geo-country.ts';

/**
 * The composition root: builds every dependency from the configuration and a database pool, then the app.
 * `overrides` replace single dependencies (tests, benchmarks).
 */
export async function composeApp(
  config: Config,
  db: pg.Pool,
  overrides: Partial<AppDeps> = {},
  /** The NATS connection of a split deployment (ROLE): the wallet's stream messages travel over it. */
  nats?: NatsConnection,
): Promise<{ app: FastifyInstance; deps: AppDeps; jobs: BackgroundJobs }> {
  const logger =
    overrides.logger ??
    createLogger({ level: config.logLevel, format: config.logFormat, stream: overrides.logStream });
  const logOf = (module: string) => logger.child({ module });
  const clock = overrides.clock ?? clockFor(config);
  // Read before anything starts, so a bad GEOIP_COUNTRY_DB stops the start with nothing to close.
  const geoCountry = overrides.geoCountry ?? countryLookupFor(config);
  // Who a request is stays in memory while the change feed is heard: every change of a session, key or user is
  // announced to every process at commit. Several api processes: while it is not heard, nothing is cached.
  const feed = overrides.users ? undefined : ChangeFeed.of(db);
  await feed?.start();
  const users = overrides.users ?? new UserDirectory(db, feed);
  const sessions =
    overrides.sessions ??
    new SessionStore(
      db,
      config.split ? { ...DEFAULT_SESSION_POLICY, cacheMs: 0 } : DEFAULT_SESSION_POLICY,
      feed,
      clock,
    );
  const keys = overrides.keys ?? (await loadServerKeys(db, config.secretKey));
  // Identity documents and id numbers an earlier version stored in plain text are sealed before anything reads them.
  const sealed = await sealPlainIdentityData(db, keys);
  for (const [what, n] of Object.entries(sealed))
    logOf('secrets').info(`sealed ${n} plain values of ${what}`);
  const core = overrides.core ?? (await startCore(db));
  const hub = overrides.hub ?? new StreamHub();
  if (nats && config.roles.has('ws')) receiveForwarded(nats, hub);
  // Stream messages made outside the committed batches (wallet events, favourites) reach every ws process.
  const streams = nats ? forwardingPublisher(nats) : hub;
  let app: FastifyInstance | undefined;
  // A process without the api role reaches the providers' simulators and its webhooks through the api's URL.
  const selfUrl = () =>
    !config.roles.has('api') && config.apiUrl ? config.apiUrl : app ? listeningUrl(app) : null;
  // Background work runs in the worker role; in a split deployment only once the jobs lock is held (main.ts).
  const jobs = config.roles.has('worker') && !config.split;
  // A provider's simulator is loaded (a dynamic import) only when the configuration selects it.
  const kyc = await kycFor(config, db, keys, clock, selfUrl, feed, logOf('kyc'));
  const bank = await bankFor(config, db, selfUrl, feed, logOf('bank'));
  const travelRule = await travelRuleFor(config, db, selfUrl);
  // A delivered secret is kept (sealed, until the dev outbox shows it once) only where the developer tools read
  // it: never with SMTP, never without DEV_TOOLS.
  const devOutboxKeys = config.devTools ? keys : undefined;
  // A request only queues its mail; the sender (a background job) delivers it over SMTP (compose-mail.ts).
  const mailSetup = overrides.mail
    ? givenMail(overrides.mail)
    : await mailFor(config, db, keys, devOutboxKeys, selfUrl, () => app, feed, logOf('mail'));
  const { mail, sender: mailSender } = mailSetup;
  // The signer knows each network's key scheme from the registry, which exists once the wallet has loaded it.
  let schemeOf = (network: string): KeyScheme => {
    throw new Error(`network ${network} is not loaded yet`);
  };
  const signer: SignerPort = config.chains.signer
    ? createSignerClient({ ...config.chains.signer, schemeOf: (network) => schemeOf(network) })
    : NO_SIGNER;
  const wallet =
    overrides.wallet ??
    (await Wallet.start({
      db,
      core,
      keys,
      mail,
      hub: streams,
      log: logOf('wallet'),
      pollMs: config.walletPollMs,
      jobs,
      feed,
      withdrawHoldHours: config.withdrawHoldHours,
      clock,
      bank: bank.payouts,
      withdrawReview: config.withdrawReview,
      travelRule: config.travelRule,
      travelRulePort: travelRule.port,
      networks: {
        chains: config.chains,
        evm: { rpcUrl: config.evmRpcUrl, chainId: config.evmChainId, devnet: config.evmDevnet },
        signer,
        simBlockMs: config.simBlockMs,
        // The simulators run where the background work runs: the worker role, or the one process.
        runSimulators: config.roles.has('worker'),
      },
    }));
  schemeOf = wallet.chains.schemeOf;
  const text = await smsFor(config, db, devOutboxKeys, clock, selfUrl, () => app, feed, logOf('sms'));
  const sms = overrides.sms ?? text.sms;
  const card = await cardIssuerFor(config, db, selfUrl, feed, logOf('card issuer'));
  const cardIssuer = overrides.cardIssuer ?? card.issuer;
  const cards =
    overrides.cards ??
    new Cards(
      {
        db,
        core,
        keys,
        issuer: cardIssuer,
        mail,
        clock,
        fees: config.card.fees,
        webhook: card.webhook,
        log: logOf('card'),
      },
      config.card.pollMs,
    );
  const deps: AppDeps = {
    config,
    db,
    clock,
    logger,
    ...(nats ? { nats } : {}),
    mail,
    sms,
    smsInbox: text.inbox,
    mailInbox: mailSetup.inbox,
    mailSimulator: mailSetup.simulator,
    ...(mailSetup.flush ? { flushMail: mailSetup.flush } : {}),
    smsSimulator: text.simulator,
    smsStatus: text.status,
    captcha: captchaFor(config, keys.captchaKey, db),
    keys,
    sessions,
    users,
    apiKeys: new ApiKeyAuthenticator(db, keys, () => clock.now(), config.split, users, feed),
    jwt: new JwtIssuer(db, keys, clock),
    bodyKey: await loadBodyKey(db, keys),
    core,
    marketData: overrides.marketData ?? (await MarketData.start(db, core, hub)),
    hub,
    streams,
    wallet,
    kyc: kyc.service,
    kycSimulator: kyc.simulator,
    cardIssuer,
    cards,
    cardSimulator: card.simulator,
    bankDeposits: {
      db,
      core,
      clock,
      collection: config.bank.collection,
      webhookSecret: bank.webhookSecret,
      onDeposit: (userId, id) => wallet.withdrawDeps().onDeposit?.(userId, id),
    },
    bankSimulator: bank.simulator,
    travelRuleSimulator: travelRule.simulator,
    supportEmail: config.supportEmail,
    diskGuard: overrides.diskGuard ?? new DiskGuard(config.dataDir, config.diskMinFreeBytes, logOf('disk')),
    outboxRetention:
      overrides.outboxRetention ?? new OutboxRetention(db, config.mailRetentionDays, logOf('mail')),
    currentUser: currentUserResolver(users, sessions),
    geoCountry,
    ...overrides,
  };
  if (config.diskMinFreeBytes > 0 && config.roles.has('api')) await deps.diskGuard.start();
  app = await buildApp(deps);
  app.addHook('onClose', () => deps.diskGuard.stop());
  app.addHook('onClose', () => wallet.stop());
  if (feed) app.addHook('onClose', () => feed.stop());
  app.addHook('preClose', () => cards.stop());
  app.addHook('preClose', () => deps.outboxRetention.stop());
  app.addHook('preClose', () => mailSetup.stop());
  // Idle and expired sessions get their end written to the security log (issue 31).
  const sessionSweep = new SessionSweep(db, sessions.idleMinutes, logOf('sessions'), undefined, clock);
  app.addHook('preClose', () => sessionSweep.stop());
  // Closures whose last withdrawal settled are completed in the background (issue 31, part 4).
  const closureSweep = new ClosureSweep(closureService(deps), logOf('account-closure'));
  app.addHook('preClose', () => closureSweep.stop());
  // Closed accounts' correspondence and records are erased once the AML retention periods end (issue 31, part 4).
  const retentionErasure = new RetentionErasure(db, clock, logOf('retention-erasure'));
  app.addHook('preClose', () => retentionErasure.stop());
  // Names screened against the sanctions list: changed ones within seconds, everyone daily (issue 33).
  const sanctions = new SanctionsScreening(db, config.sanctionsMatchThreshold, logOf('sanctions'), clock);
  app.addHook('preClose', () => sanctions.stop());
  // Every operation valued in EUR and checked by the AML rules, a few seconds after it commits (issue 33).
  const monitor = transactionMonitor({ db, core, clock, config, log: logOf('monitoring') });
  app.addHook('preClose', () => monitor.stop());
  // The background jobs by name; each runs in one process at a time (a lock per job in a split deployment).
  const backgroundJobs: BackgroundJobs = {
    wallet: () => wallet.startJobs(),
    'kyc webhooks': async () => deps.kycSimulator?.delivery.start(),
    'card webhooks': async () => deps.cardSimulator?.delivery.start(),
    'bank webhooks': async () => deps.bankSimulator?.delivery.start(),
    'card fees': async () => cards.start(),
    'outbox retention': async () => deps.outboxRetention.start(),
    'mail sender': async () => mailSender?.start(),
    'session sweep': async () => sessionSweep.start(),
    'account closure': async () => closureSweep.start(),
    // New jobs go last: a split deployment locks each job by its position (jobLock in db/locks.ts).
    'retention erasure': async () => retentionErasure.start(),
    'sanctions screening': async () => sanctions.start(),
    'transaction monitoring': async () => monitor.start(),
    'sms status callbacks': async () => deps.smsSimulator?.delivery.start(),
  };
  if (jobs) for (const [name, start] of Object.entries(backgroundJobs)) if (name !== 'wallet') await start();
  return { app, deps, jobs: backgroundJobs };
}

/**
 * The machine's clock, or with NODE_ENV=test a TestClock that the test-only control (modules/dev/clock-routes.ts)
 * moves, so an end-to-end test moves the server's time instead of waiting for it.
 */
export function clockFor(config: Pick<Config, 'env'>): Clock {
  return config.env === 'test' ? new TestClock() : systemClock;
}

/** Starts one background job (the wallet's loops, a webhook delivery, the card fee run). */
export type BackgroundJobs = Record<string, () => Promise<void>>;

/** `http://host:port` of a listening app, for calls it makes to itself (loopback for a wildcard address). */
function listeningUrl(app: FastifyInstance): string | null {
  const address = app.server.address();
  if (!address || typeof address === 'string') return null;
  const wildcard = address.address === '0.0.0.0' || address.address === '::';
  const host = wildcard ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/** The captcha adapter for CAPTCHA_TYPE: ALTCHA proof-of-work (self-hosted), reCAPTCHA, or none. */
function captchaFor(config: Config, key: Buffer, db: pg.Pool): CaptchaPort {
  if (config.captchaType === 'altcha')
    return createAltchaCaptcha(key.toString('hex'), db, config.altchaDifficultyBits);
  if (config.captchaType === 'recaptcha' && config.recaptcha) return createRecaptcha(config.recaptcha.secret);
  return noCaptcha;
}
