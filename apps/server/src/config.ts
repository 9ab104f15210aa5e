import path from 'node:path';
import { z } from 'zod';
import type { CollectionAccount } from './adapters/bank/port.ts';
import {
  bankConfig,
  bankEnv,
  cardConfig,
  cardEnv,
  checkKyc,
  kycConfig,
  kycEnv,
  marqetaConfig,
  type SmsConfig,
  smsConfig,
  smsEnv,
} from './config-providers.ts';
import {
  type BackupConfig,
  type CardConfig,
  type ChainsConfig,
  ConfigError,
  type KycConfig,
  type WithdrawReviewRules,
} from './config-sections.ts';
import {
  type TravelRuleConfig,
  travelRuleConfig,
  travelRuleEnv,
} from './modules/compliance/travel-rule/config.ts';
import { type TrustProxy, trustProxySchema } from './net/trust-proxy.ts';
import { WEB_DIST } from './paths.ts';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])
  .transform((v) => ['true', '1', 'yes', 'on'].includes(v));

/** The parts of the app a process runs (docs/operations.md#process-model); all of them unless ROLE says otherwise. */
export const ROLES = ['api', 'ws', 'core', 'worker'] as const;
export type Role = (typeof ROLES)[number];

const roleList = z
  .string()
  .transform((v) => v.split(',').map((r) => r.trim()))
  .pipe(z.array(z.enum(ROLES, 'must be a comma list of api, ws, core, worker')).min(1));

const envSchema = z.object({
  ROLE: roleList.optional(),
  NATS_URL: z
    .string()
    .regex(/^(nats|tls):\/\/[^\s]+$/, 'must start with nats:// or tls://')
    .optional(),
  API_URL: z.url().optional(),
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  DATABASE_OWNER_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1024).max(65535).default(54329),
  BACKUP_DIR: z
    .string()
    .min(1)
    .refine((v) => !/['"%\\\n]/.test(v), 'must not contain quotes, %, backslashes or newlines')
    .optional(),
  BACKUP_INTERVAL_HOURS: z.coerce.number().min(0).max(8760).default(24),
  BACKUP_KEEP: z.coerce.number().int().min(1).max(10_000).default(7),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_PROVIDER: z.enum(['simulator', 'outbox', 'smtp']).optional(),
  MAIL_FROM: z.string().min(3).default('Exchange <no-reply@example.com>'),
  MAIL_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  DISK_MIN_FREE_MB: z.coerce.number().int().min(0).max(10_000_000).default(512),
  SUPPORT_EMAIL: z.email().default('support@example.com'),
  CAPTCHA_TYPE: z.enum(['none', 'altcha', 'recaptcha']).default('altcha'),
  ALTCHA_DIFFICULTY_BITS: z.coerce
    .number()
    .int()
    .min(4)
    .max(24)
    .refine((bits) => bits % 4 === 0, 'must be a multiple of 4 (one hexadecimal zero per 4 bits)')
    .default(16),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['json', 'text']).optional(),
  DEV_TOOLS: bool.optional(),
  SEED_DEMO: bool.optional(),
  DEMO_BOOKS: bool.optional(),
  DEMO_BOT: bool.optional(),
  DEMO_BOT_INTERVAL_MS: z.coerce.number().int().min(200).max(600_000).default(3000),
  DEMO_PASSWORD: z.string().min(8).default('Demo-pass-2026!'),
  TRUST_PROXY: trustProxySchema,
  GEOIP_COUNTRY_DB: z.string().min(1).optional(),
  RATE_LIMITS: bool.default(true),
  LOGIN_ATTEMPTS_PER_WINDOW: z.coerce.number().int().min(1).max(10_000).default(20),
  BASEAPP_COMPAT: bool.default(false),
  PUBLIC_URL: z.url().optional(),
  RECAPTCHA_SITE_KEY: z.string().min(10).optional(),
  RECAPTCHA_SECRET: z.string().min(10).optional(),
  SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  WEB_DIST: z.string().optional(),
  WALLET_POLL_MS: z.coerce.number().int().min(0).max(600_000).default(1000),
  SIM_BLOCK_MS: z.coerce.number().int().min(0).max(600_000).optional(),
  EVM_RPC_URL: z.url().optional(),
  EVM_CHAIN_ID: z.coerce.number().int().positive().default(31337),
  EVM_DEVNET: bool.optional(),
  BTC_RPC_URL: z.url().optional(),
  TRON_API_URL: z.url().optional(),
  TRON_API_KEY: z.string().min(1).optional(),
  TRON_USDT_CONTRACT: z
    .string()
    .regex(/^T[1-9A-HJ-NP-Za-km-z]{33}$/, 'must be a TRON address')
    .default('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'),
  CHAIN_SIM_BTC_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  CHAIN_SIM_TRON_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  SIGNER_URL: z.url().optional(),
  SIGNER_TOKEN: z.string().min(32).optional(),
  WITHDRAW_HOLD_HOURS: z.coerce.number().int().min(0).max(720).default(24),
  WITHDRAW_REVIEW_NEW_BENEFICIARY_HOURS: z.coerce.number().int().min(0).max(720).default(24),
  WITHDRAW_REVIEW_PASS_THROUGH_MINUTES: z.coerce.number().int().min(0).max(10_080).default(60),
  SANCTIONS_MATCH_THRESHOLD: z.coerce.number().int().min(50).max(100).default(88),
  AML_MONITOR_INTERVAL_MS: z.coerce.number().int().min(0).max(3_600_000).default(10_000),
  AML_LINKED_WINDOW_DAYS: z.coerce.number().int().min(1).max(365).default(7),
  AML_HIGH_RISK_COUNTRIES: z
    .string()
    .regex(/^([A-Za-z]{2,3}(,[A-Za-z]{2,3})*)?$/, 'must be comma-separated ISO country codes')
    .default('KP,PRK,IR,IRN,MM,MMR'),
  ...kycEnv,
  ...bankEnv,
  ...smsEnv,
  ...cardEnv,
  ...travelRuleEnv,
});

export { ConfigError } from './config-sections.ts';
export type { BackupConfig, CardConfig, KycConfig, WithdrawReviewRules };

/** Validated runtime configuration; every field comes from an environment variable of the same meaning. */
export interface Config {
  /** What this process runs; `split` when it is not all of them (then DATABASE_URL and NATS_URL are set). */
  roles: ReadonlySet<Role>;
  split: boolean;
  natsUrl: string | undefined;
  /** The api processes' base URL, for a process without the api role (simulators' webhooks, the bot). */
  apiUrl: string | undefined;
  /** `GET /metrics` on a port of its own for Prometheus, when set (also at /api/v2/admin/metrics for staff). */
  metrics: { port: number; host: string } | undefined;
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /**
   * The owner of the external database's schema: migrations and backups; DATABASE_URL is then the app's restricted
   * role. Unset: DATABASE_URL does both.
   */
  databaseOwnerUrl: string | undefined;
  embeddedPgPort: number;
  /** Backups and WAL archiving ({@link BackupConfig}); `dir` unset: no scheduled backups, no archiving. */
  backup: BackupConfig;
  smtpUrl: string | undefined;
  /**
   * Where mail goes (MAIL_PROVIDER): `smtp` (SMTP_URL; the default when it is set), `simulator` (the built-in mail
   * server, reached over SMTP all the same; the default without SMTP_URL) or `outbox` (the outbox table only).
   */
  mailProvider: 'simulator' | 'outbox' | 'smtp';
  /** Days a record of a sent message (mail and SMS outbox) is kept before the retention job deletes it. */
  mailRetentionDays: number;
  /** Below this free space on DATA_DIR (bytes) new orders and withdrawals are refused (503 server.disk_low). */
  diskMinFreeBytes: number;
  mailFrom: string;
  supportEmail: string;
  captchaType: 'none' | 'altcha' | 'recaptcha';
  /**
   * ALTCHA's proof of work: leading zero bits of the SHA-256 a browser must find (16: about 65,000 hashes, a
   * second's work in a browser; each 4 more bits is 16 times the work).
   */
  altchaDifficultyBits: number;
  logLevel: string;
  /** JSON lines (default in production) or plain text (default otherwise). */
  logFormat: 'json' | 'text';
  devTools: boolean;
  seedDemo: boolean;
  /** Place a small demo order book in every market (with the demo users). */
  demoBooks: boolean;
  /** The demo liquidity bot: on with the demo books, never in production; `intervalMs` between its rounds. */
  demoBot: { enabled: boolean; intervalMs: number };
  demoPassword: string;
  /** Which proxies may name the client's address (hop count or their addresses); never every hop. */
  trustProxy: TrustProxy;
  /**
   * A MaxMind DB country database (GeoLite2-Country or GeoIP2-Country) the api loads at start, so a login from a
   * new country is noticed (README, "New device or country"); unset: no country is known, only new devices are.
   */
  geoipCountryDb: string | undefined;
  /** Per-IP and per-account request limits; only a load test on loopback turns them off. */
  rateLimits: boolean;
  /**
   * Login attempts (of any outcome) one account may make per 10 minutes from all addresses together
   * (LOGIN_ATTEMPTS_PER_WINDOW, default 20); the end-to-end suite, which logs its two demo users in from every
   * spec file, raises it.
   */
  loginAttemptsPerWindow: number;
  webDist: string;
  /** reCAPTCHA keys, required when CAPTCHA_TYPE=recaptcha. */
  recaptcha: { siteKey: string; secret: string } | undefined;
  /** Address of the web app as users reach it; links in emails point here (never at a request's Host header). */
  publicUrl: string;
  /** How often the deposit watchers and the withdrawal processor run (ms); 0 turns the loop off (tests). */
  walletPollMs: number;
  /** A block every this many ms on the simulated chains (default 1000 outside production; 0: only by hand). */
  simBlockMs: number;
  /** JSON-RPC of an external EVM node for eth-devnet; unset: an in-process Hardhat devnet outside production. */
  evmRpcUrl: string | undefined;
  /** Chain id signed into every EVM transaction (EIP-155) when EVM_RPC_URL is set. */
  evmChainId: number;
  /** Without EVM_RPC_URL, run an in-process Hardhat devnet for eth-devnet (default outside production). */
  evmDevnet: boolean;
  /** Bitcoin and TRON nodes (their simulators by default) and the signer. */
  chains: ChainsConfig;
  /** Withdrawals wait this many hours after a password or 2FA change. */
  withdrawHoldHours: number;
  /** When a withdrawal waits for staff review (the limits themselves are set in the console). */
  withdrawReview: WithdrawReviewRules;
  /** A name scoring at or above this (0..100) against a sanctions list name is a screening hit. */
  sanctionsMatchThreshold: number;
  /** Transaction monitoring (issue 33): how often it scans, the linked window, the high-risk countries. */
  aml: { intervalMs: number; linkedWindowDays: number; highRiskCountries: string[] };
  /** The travel rule: the provider directory, our own identity, the self-hosted proof threshold. */
  travelRule: TravelRuleConfig;
  /** Identity verification: the provider, the level checked, and the simulator's demo settings. */
  kyc: KycConfig;
  /** Root secret for hashing codes and encrypting secrets at rest; generated and stored when unset (not in production). */
  secretKey: string | undefined;
  /** The card program: the issuer, its simulator's demo settings, the fees and limits. */
  card: CardConfig;
  /**
   * The bank: its simulator (by default) or an external bank whose notifications are signed with `webhookSecret`,
   * and the collection account customers send SEPA deposits to (the simulator's one account).
   */
  bank: { provider: 'simulator' | 'external'; webhookSecret?: string; collection: CollectionAccount };
  /** Text messages: the outbox table, the SMS simulator, or Twilio (issue 34, item 4). */
  sms: SmsConfig;
  /**
   * BASEAPP_COMPAT: serve BaseApp 2.6's flows besides the spec's (registration with email and password, account
   * confirmation by a mailed link's token, a 6-digit emailed login code sent by itself, beneficiary removal
   * confirmed by mail instead of an authenticator code). Off by default; SECURITY.md says what each part weakens.
   */
  baseAppCompat: boolean;
}

/**
 * Reads and validates the configuration from `env`.
 * @throws ConfigError naming the first offending variable, e.g. `PORT: Invalid input: expected number`.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(
    Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== '')),
  );
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = issue?.path.join('.') ?? 'environment';
    throw new ConfigError(`Invalid configuration: ${name}: ${issue?.message ?? 'invalid value'}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  if (e.CAPTCHA_TYPE === 'recaptcha' && !(e.RECAPTCHA_SITE_KEY && e.RECAPTCHA_SECRET)) {
    throw new ConfigError(
      'Invalid configuration: RECAPTCHA_SECRET: RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET are required with CAPTCHA_TYPE=recaptcha',
    );
  }
  checkKyc(e);
  const marqeta = marqetaConfig(e);
  const roles = new Set<Role>(e.ROLE ?? ROLES);
  const split = roles.size < ROLES.length;
  if (split && !(e.DATABASE_URL && e.NATS_URL)) {
    throw new ConfigError(
      'Invalid configuration: ROLE: a process with only some roles needs DATABASE_URL and NATS_URL (the others run elsewhere)',
    );
  }
  if (e.MAIL_PROVIDER === 'smtp' && !e.SMTP_URL)
    throw new ConfigError('Invalid configuration: SMTP_URL: MAIL_PROVIDER=smtp needs SMTP_URL');
  if (Boolean(e.SIGNER_URL) !== Boolean(e.SIGNER_TOKEN)) {
    throw new ConfigError('Invalid configuration: SIGNER_URL: SIGNER_URL and SIGNER_TOKEN go together');
  }
  if (split && roles.has('worker') && !e.SIGNER_URL) {
    throw new ConfigError(
      'Invalid configuration: SIGNER_URL: a worker of a split deployment signs through the signer (ROLE=signer): set SIGNER_URL and SIGNER_TOKEN',
    );
  }
  if (e.DATABASE_OWNER_URL && !e.DATABASE_URL) {
    throw new ConfigError(
      'Invalid configuration: DATABASE_OWNER_URL: the owner of an external database goes with DATABASE_URL (the embedded one has its own roles)',
    );
  }
  if (production && e.DEMO_BOT === true) {
    throw new ConfigError(
      'Invalid configuration: DEMO_BOT: the demo bot never runs with NODE_ENV=production',
    );
  }
  if (production && !e.SECRET_KEY) {
    throw new ConfigError('Invalid configuration: SECRET_KEY: required when NODE_ENV=production');
  }
  if (e.TRAVEL_RULE_PROTOCOL === 'http' && !e.TRAVEL_RULE_URL) {
    throw new ConfigError('Invalid configuration: TRAVEL_RULE_URL: required when TRAVEL_RULE_PROTOCOL=http');
  }
  return {
    roles,
    split,
    natsUrl: e.NATS_URL,
    apiUrl: e.API_URL?.replace(/\/+$/, ''),
    metrics: e.METRICS_PORT ? { port: e.METRICS_PORT, host: e.METRICS_HOST } : undefined,
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databaseOwnerUrl: e.DATABASE_OWNER_URL,
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    backup: {
      dir: e.BACKUP_DIR ? path.resolve(e.BACKUP_DIR) : undefined,
      intervalHours: e.BACKUP_INTERVAL_HOURS,
      keep: e.BACKUP_KEEP,
    },
    smtpUrl: e.SMTP_URL,
    mailProvider: e.MAIL_PROVIDER ?? (e.SMTP_URL ? 'smtp' : 'simulator'),
    mailRetentionDays: e.MAIL_RETENTION_DAYS,
    diskMinFreeBytes: e.DISK_MIN_FREE_MB * 2 ** 20,
    mailFrom: e.MAIL_FROM,
    supportEmail: e.SUPPORT_EMAIL,
    captchaType: e.CAPTCHA_TYPE,
    altchaDifficultyBits: e.ALTCHA_DIFFICULTY_BITS,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? (e.NODE_ENV === 'production' ? 'json' : 'text'),
    devTools: e.DEV_TOOLS ?? !production,
    seedDemo: e.SEED_DEMO ?? !production,
    demoBooks: (e.SEED_DEMO ?? !production) && (e.DEMO_BOOKS ?? true),
    demoBot: {
      // The bot runs beside the api in one process; a split deployment runs its own bots.
      enabled:
        !production && !split && (e.SEED_DEMO ?? true) && (e.DEMO_BOOKS ?? true) && (e.DEMO_BOT ?? true),
      intervalMs: e.DEMO_BOT_INTERVAL_MS,
    },
    demoPassword: e.DEMO_PASSWORD,
    trustProxy: e.TRUST_PROXY,
    geoipCountryDb: e.GEOIP_COUNTRY_DB ? path.resolve(e.GEOIP_COUNTRY_DB) : undefined,
    rateLimits: e.RATE_LIMITS,
    loginAttemptsPerWindow: e.LOGIN_ATTEMPTS_PER_WINDOW,
    baseAppCompat: e.BASEAPP_COMPAT,
    secretKey: e.SECRET_KEY,
    kyc: kycConfig(e),
    bank: bankConfig(e),
    sms: smsConfig(e),
    card: cardConfig(e, marqeta),
    recaptcha:
      e.RECAPTCHA_SITE_KEY && e.RECAPTCHA_SECRET
        ? { siteKey: e.RECAPTCHA_SITE_KEY, secret: e.RECAPTCHA_SECRET }
        : undefined,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    walletPollMs: e.WALLET_POLL_MS,
    simBlockMs: e.SIM_BLOCK_MS ?? (production ? 0 : 1000),
    evmRpcUrl: e.EVM_RPC_URL,
    evmChainId: e.EVM_CHAIN_ID,
    evmDevnet: e.EVM_DEVNET ?? !production,
    chains: {
      bitcoinRpcUrl: e.BTC_RPC_URL,
      tronApiUrl: e.TRON_API_URL,
      tronApiKey: e.TRON_API_KEY,
      tronUsdtContract: e.TRON_USDT_CONTRACT,
      // One process: any free port. Split: fixed ports, so every role finds the simulators the worker runs.
      simBitcoinPort: e.CHAIN_SIM_BTC_PORT ?? (split ? 18443 : 0),
      simTronPort: e.CHAIN_SIM_TRON_PORT ?? (split ? 18190 : 0),
      signer: e.SIGNER_URL && e.SIGNER_TOKEN ? { url: e.SIGNER_URL, token: e.SIGNER_TOKEN } : undefined,
    },
    withdrawHoldHours: e.WITHDRAW_HOLD_HOURS,
    sanctionsMatchThreshold: e.SANCTIONS_MATCH_THRESHOLD,
    withdrawReview: {
      newBeneficiaryHours: e.WITHDRAW_REVIEW_NEW_BENEFICIARY_HOURS,
      passThroughMinutes: e.WITHDRAW_REVIEW_PASS_THROUGH_MINUTES,
    },
    aml: {
      intervalMs: e.AML_MONITOR_INTERVAL_MS,
      linkedWindowDays: e.AML_LINKED_WINDOW_DAYS,
      highRiskCountries: e.AML_HIGH_RISK_COUNTRIES.split(',')
        .filter(Boolean)
        .map((c) => c.toUpperCase()),
    },
    webDist: path.resolve(e.WEB_DIST ?? WEB_DIST),
    travelRule: travelRuleConfig(e, e.CARD_EUR_PER_USDT),
  };
}
