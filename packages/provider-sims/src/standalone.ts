import type { MountedSimulator } from '@exchange/server/provider-kit';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import type pg from 'pg';
import { createBankSimulator } from './bank/index.ts';
import { createCardSimulator } from './card-issuer/index.ts';
import { createKycSimulator } from './kyc/index.ts';
import { createMailSimulator } from './mail/index.ts';
import { prepareSimulatorSchema } from './schema.ts';
import { createSmsSimulator } from './sms/index.ts';
import { createTravelRuleSimulator } from './travel-rule/index.ts';

/** The simulators a standalone server can be. */
export const PROVIDERS = ['kyc', 'card', 'bank', 'travel-rule', 'sms', 'mail'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** What a standalone simulator needs besides its database. */
export interface StandaloneOptions {
  /**
   * Its database: the exchange's, where the simulators keep their own tables (migrated at start: see
   * {@link prepareSimulatorSchema}).
   */
  db: pg.Pool;
  /** The schema owner's connection (DATABASE_OWNER_URL), when the role of `db` may not create tables. */
  ownerUrl?: string;
  /** Where the migration's notes go (the applied migrations, a warning on the roles). */
  log?: { info(msg: string): void; warn(msg: string): void };
  host?: string;
  /** 0: any free port. */
  port?: number;
  /**
   * The exchange's full webhook URL for this provider (what the provider's dashboard would be told); required but
   * for the travel-rule network, which sends none.
   */
  webhookUrl?: string;
  /** KYC: the exchange's public URL (its verification page's links and redirects stay under it). */
  publicUrl?: string;
  /** Card: EUR per USDT, a decimal string. */
  eurPerUsdt?: string;
  /** Bank: the collection account it keeps. */
  collection?: { iban: string; bic: string; name: string };
  /** Travel rule: how long a provider set to `timeout` keeps a request (ms; the exchange waits 10 s by default). */
  holdMs?: number;
  /** SMS: how many API requests an account may make per second (then 429, code 20429). */
  requestsPerSecond?: number;
  /** Mail: the SMTP server's port (0: any free port; the mailbox is served on `port`). */
  smtpPort?: number;
}

/** A running standalone simulator: its address, its credentials (to configure the exchange with), and its end. */
export interface StandaloneSimulator {
  url: string;
  /** Mail: the SMTP server to point SMTP_URL at (with the credentials). */
  smtpUrl?: string;
  credentials: unknown;
  app: FastifyInstance;
  close(): Promise<void>;
}

/**
 * Starts one simulator as its own HTTP server: the same routes under the same prefix as mounted in the exchange's
 * one process, its webhooks delivered to `webhookUrl`. The exchange reaches it as it reaches the real provider
 * (SUMSUB_BASE_URL, MARQETA_BASE_URL, with the credentials printed at start; TRAVEL_RULE_PROTOCOL=http with
 * TRAVEL_RULE_URL; SMS_PROVIDER=twilio with TWILIO_API_URL). Each route's own rate limit holds, as in the one process.
 */
export async function startStandalone(
  provider: Provider,
  options: StandaloneOptions,
): Promise<StandaloneSimulator> {
  const { webhookUrl } = options;
  const sendsWebhooks = provider !== 'travel-rule' && provider !== 'sms' && provider !== 'mail';
  if (sendsWebhooks && !webhookUrl) throw new Error(`the ${provider} simulator needs a webhook URL`);
  // Its tables before it uses them: the simulators' migrations, as the owner when one is given.
  const log = options.log ?? { info: () => {}, warn: () => {} };
  const applied = await prepareSimulatorSchema(options.db, options.ownerUrl, log);
  if (applied.length > 0) log.info(`applied migrations: ${applied.join(', ')}`);
  if (provider === 'mail') return startMail(options);
  const common = { db: options.db, webhookUrl: () => webhookUrl ?? null };
  let simulator: MountedSimulator<unknown>;
  if (provider === 'sms')
    simulator = await createSmsSimulator({ db: options.db, requestsPerSecond: options.requestsPerSecond });
  else if (provider === 'travel-rule')
    simulator = createTravelRuleSimulator({ db: options.db, holdMs: options.holdMs ?? 11_000 });
  else if (provider === 'kyc')
    simulator = await createKycSimulator({
      ...common,
      publicUrl: options.publicUrl ?? 'http://127.0.0.1:3000',
      autoApproveSeconds: 0,
      digestAlgorithm: 'HMAC_SHA256_HEX',
    });
  else if (provider === 'card')
    simulator = await createCardSimulator({
      ...common,
      autoApproveSeconds: 0,
      shipSeconds: 5,
      topupSettleSeconds: 1800,
      eurPerUsdt: options.eurPerUsdt ?? '0.92',
    });
  else
    simulator = await createBankSimulator({
      ...common,
      collection: options.collection ?? {
        iban: 'DE89370400440532013000',
        bic: 'COBADEFFXXX',
        name: 'Exchange Collection Account',
      },
    });
  const app = Fastify({ bodyLimit: 1 << 20 });
  // Only the routes that name a limit are limited (the travel-rule network's), per client address, in memory.
  await app.register(fastifyRateLimit, { global: false });
  await app.register((sim) => simulator.routes(sim), { prefix: simulator.prefix });
  app.addHook('preClose', () => simulator.delivery.stop());
  const url = await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  simulator.delivery.start();
  return {
    url: `${url}${simulator.prefix}`,
    credentials: simulator.credentials,
    app,
    close: () => app.close(),
  };
}

/**
 * The mail simulator on its own: its SMTP server on `smtpPort` (SMTP_URL of the exchange, with the credentials) and
 * its mailbox over HTTP on `port`.
 */
async function startMail(options: StandaloneOptions): Promise<StandaloneSimulator> {
  const simulator = await createMailSimulator({ db: options.db });
  const host = options.host ?? '127.0.0.1';
  const app = Fastify({ bodyLimit: 1 << 20 });
  await app.register((sim) => simulator.routes(sim), { prefix: simulator.prefix });
  app.addHook('onClose', () => simulator.close());
  const url = await app.listen({ host, port: options.port ?? 0 });
  const smtpPort = await simulator.listen(host, options.smtpPort ?? 0);
  const { user, password } = simulator.credentials;
  return {
    url: `${url}${simulator.prefix}`,
    smtpUrl: `smtp://${encodeURIComponent(user)}:${encodeURIComponent(password)}@${host}:${smtpPort}`,
    credentials: simulator.credentials,
    app,
    close: () => app.close(),
  };
}
