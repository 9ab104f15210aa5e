import { z } from 'zod';
import { validIban } from './adapters/bank/port.ts';
import { type CardConfig, ConfigError, type KycConfig } from './config-sections.ts';

/**
 * The settings of the providers that have a built-in simulator as the default (identity verification, the bank's
 * collection account, the card issuer): their environment variables, checks and parts of the configuration.
 * config.ts spreads the variables into its schema in this order and calls the checks where it always did, so the
 * first offending variable named is the same.
 */

/** A USDT amount: a non-negative decimal with at most 6 decimals (USDT's precision). */
const usdt = z.string().regex(/^(0|[1-9]\d{0,11})(\.\d{1,6})?$/, 'must be a decimal with at most 6 decimals');

/** KYC_* and SUMSUB_*: the verification provider and its levels. */
export const kycEnv = {
  KYC_PROVIDER: z.enum(['simulator', 'sumsub']).default('simulator'),
  KYC_LEVEL_NAME: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/)
    .default('basic-kyc-level'),
  KYB_LEVEL_NAME: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/)
    .default('kyb-level'),
  KYC_AUTO_APPROVE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(0),
  KYC_SIM_DIGEST_ALG: z
    .enum(['HMAC_SHA1_HEX', 'HMAC_SHA256_HEX', 'HMAC_SHA512_HEX'])
    .default('HMAC_SHA256_HEX'),
  SUMSUB_BASE_URL: z.url().default('https://api.sumsub.com'),
  SUMSUB_APP_TOKEN: z.string().min(10).optional(),
  SUMSUB_SECRET_KEY: z.string().min(10).optional(),
  SUMSUB_WEBHOOK_SECRET: z.string().min(10).optional(),
  SUMSUB_WEBSDK_URL: z.url().default('https://static.sumsub.com/idensic/static/sns-websdk-builder.js'),
};

/** BANK_*: the bank (its simulator by default) and the collection account of SEPA deposits. */
export const bankEnv = {
  // `external`: a real bank sends its notifications signed with BANK_WEBHOOK_SECRET; the simulator is not loaded.
  BANK_PROVIDER: z.enum(['simulator', 'external']).default('simulator'),
  BANK_WEBHOOK_SECRET: z.string().min(16).optional(),
  // The exchange's collection account for SEPA deposits (the bank simulator keeps this one account).
  BANK_COLLECTION_IBAN: z
    .string()
    .transform((v) => v.replace(/\s+/g, '').toUpperCase())
    .refine(validIban, 'not a valid IBAN')
    .default('DE89370400440532013000'),
  BANK_COLLECTION_BIC: z
    .string()
    .regex(/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/)
    .default('COBADEFFXXX'),
  BANK_COLLECTION_NAME: z.string().min(2).max(70).default('Exchange Collection Account'),
};

/** SMS_PROVIDER and TWILIO_*: where text messages go. */
export const smsEnv = {
  // `simulator` (the default, like the other providers'): Twilio's API as the SMS simulator answers it, mounted in
  // this process; `twilio`: Twilio's API at TWILIO_API_URL (the simulator is not loaded); `outbox`: kept in the
  // outbox table only, for the dev outbox.
  SMS_PROVIDER: z.enum(['outbox', 'simulator', 'twilio']).default('simulator'),
  TWILIO_API_URL: z.url().default('https://api.twilio.com'),
  TWILIO_ACCOUNT_SID: z
    .string()
    .regex(/^AC[0-9a-fA-F]{32}$/, 'must be AC and 32 hex digits')
    .optional(),
  TWILIO_AUTH_TOKEN: z.string().min(16).optional(),
  TWILIO_FROM: z
    .string()
    .regex(/^(\+[1-9]\d{6,14}|[A-Za-z0-9 ]{1,11})$/, 'must be an E.164 number (+ and digits) or a sender ID')
    .optional(),
  TWILIO_MESSAGING_SERVICE_SID: z
    .string()
    .regex(/^MG[0-9a-fA-F]{32}$/, 'must be MG and 32 hex digits')
    .optional(),
  TWILIO_STATUS_CALLBACK: z.url().optional(),
  SMS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
};

/** Where text messages go, and with SMS_PROVIDER=twilio the account they are sent from. */
export interface SmsConfig {
  provider: 'outbox' | 'simulator' | 'twilio';
  timeoutMs: number;
  twilio?: {
    baseUrl: string;
    accountSid: string;
    authToken: string;
    sender: { from: string } | { messagingServiceSid: string };
    statusCallback?: string;
  };
}

/** CARD_* and MARQETA_*: the card issuer, its fees and limits. */
export const cardEnv = {
  CARD_ISSUER: z.enum(['simulator', 'marqeta']).default('simulator'),
  CARD_AUTO_APPROVE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(0),
  CARD_SIM_SHIP_SECONDS: z.coerce.number().int().min(0).max(86_400).default(5),
  CARD_POLL_MS: z.coerce.number().int().min(0).max(86_400_000).default(60_000),
  CARD_ISSUER_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  CARD_ACTIVATION_FEE: usdt.default('10'),
  CARD_ANNUAL_FEE: usdt.default('20'),
  CARD_TOPUP_FEE: usdt.default('1'),
  CARD_TOPUP_LIMIT: usdt.default('5000'),
  CARD_LOAD_LIMIT: usdt.default('10000'),
  CARD_TOPUP_SETTLE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(1800),
  CARD_EUR_PER_USDT: z
    .string()
    .regex(/^(0|[1-9]\d{0,5})(\.\d{1,8})?$/, 'must be a decimal with at most 8 decimals')
    .refine((v) => /[1-9]/.test(v), 'must be positive')
    .default('0.92'),
  MARQETA_BASE_URL: z.url().default('https://sandbox-api.marqeta.com/v3'),
  MARQETA_APP_TOKEN: z.string().min(1).optional(),
  MARQETA_ACCESS_TOKEN: z.string().min(1).optional(),
  MARQETA_CARD_PRODUCT_TOKEN: z.string().min(1).optional(),
  MARQETA_WEBHOOK_USERNAME: z.string().min(1).optional(),
  MARQETA_WEBHOOK_PASSWORD: z.string().min(1).optional(),
  MARQETA_WEBHOOK_SECRET: z.string().min(16).optional(),
};

const kycSchema = z.object(kycEnv);
const bankSchema = z.object(bankEnv);
const smsSchema = z.object(smsEnv);
const cardSchema = z.object(cardEnv);

/** Refuses KYC_PROVIDER=sumsub without the Sumsub credentials. */
export function checkKyc(e: z.output<typeof kycSchema>): void {
  if (
    e.KYC_PROVIDER === 'sumsub' &&
    !(e.SUMSUB_APP_TOKEN && e.SUMSUB_SECRET_KEY && e.SUMSUB_WEBHOOK_SECRET)
  ) {
    throw new ConfigError(
      'Invalid configuration: SUMSUB_APP_TOKEN: SUMSUB_APP_TOKEN, SUMSUB_SECRET_KEY and SUMSUB_WEBHOOK_SECRET are required with KYC_PROVIDER=sumsub',
    );
  }
}

/** The real Marqeta's address and credentials when all are set; refuses CARD_ISSUER=marqeta without them. */
export function marqetaConfig(e: z.output<typeof cardSchema>): CardConfig['marqeta'] {
  const marqeta =
    e.MARQETA_APP_TOKEN &&
    e.MARQETA_ACCESS_TOKEN &&
    e.MARQETA_CARD_PRODUCT_TOKEN &&
    e.MARQETA_WEBHOOK_USERNAME &&
    e.MARQETA_WEBHOOK_PASSWORD &&
    e.MARQETA_WEBHOOK_SECRET
      ? {
          baseUrl: e.MARQETA_BASE_URL,
          appToken: e.MARQETA_APP_TOKEN,
          accessToken: e.MARQETA_ACCESS_TOKEN,
          cardProductToken: e.MARQETA_CARD_PRODUCT_TOKEN,
          webhook: {
            username: e.MARQETA_WEBHOOK_USERNAME,
            password: e.MARQETA_WEBHOOK_PASSWORD,
            secret: e.MARQETA_WEBHOOK_SECRET,
          },
        }
      : undefined;
  if (e.CARD_ISSUER === 'marqeta' && !marqeta) {
    throw new ConfigError(
      'Invalid configuration: MARQETA_APP_TOKEN: MARQETA_APP_TOKEN, MARQETA_ACCESS_TOKEN, MARQETA_CARD_PRODUCT_TOKEN, MARQETA_WEBHOOK_USERNAME, MARQETA_WEBHOOK_PASSWORD and MARQETA_WEBHOOK_SECRET are required with CARD_ISSUER=marqeta',
    );
  }
  return marqeta;
}

/** Identity verification: the provider, the levels checked, the simulator's demo settings. */
export function kycConfig(e: z.output<typeof kycSchema>): KycConfig {
  return {
    provider: e.KYC_PROVIDER,
    levelName: e.KYC_LEVEL_NAME,
    kybLevelName: e.KYB_LEVEL_NAME,
    autoApproveSeconds: e.KYC_AUTO_APPROVE_SECONDS,
    simDigestAlg: e.KYC_SIM_DIGEST_ALG,
    sumsub:
      e.SUMSUB_APP_TOKEN && e.SUMSUB_SECRET_KEY && e.SUMSUB_WEBHOOK_SECRET
        ? {
            baseUrl: e.SUMSUB_BASE_URL,
            appToken: e.SUMSUB_APP_TOKEN,
            secretKey: e.SUMSUB_SECRET_KEY,
            webhookSecret: e.SUMSUB_WEBHOOK_SECRET,
          }
        : undefined,
    webSdkUrl: e.SUMSUB_WEBSDK_URL,
  };
}

/** The SMS settings; refuses SMS_PROVIDER=twilio without the account's SID, token and a sender. */
export function smsConfig(e: z.output<typeof smsSchema>): SmsConfig {
  const sid = e.TWILIO_ACCOUNT_SID;
  const token = e.TWILIO_AUTH_TOKEN;
  const sender = e.TWILIO_MESSAGING_SERVICE_SID
    ? { messagingServiceSid: e.TWILIO_MESSAGING_SERVICE_SID }
    : e.TWILIO_FROM
      ? { from: e.TWILIO_FROM }
      : undefined;
  if (e.SMS_PROVIDER === 'twilio' && !(sid && token && sender))
    throw new ConfigError(
      'Invalid configuration: TWILIO_ACCOUNT_SID: TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM (or TWILIO_MESSAGING_SERVICE_SID) are required with SMS_PROVIDER=twilio',
    );
  return {
    provider: e.SMS_PROVIDER,
    timeoutMs: e.SMS_TIMEOUT_MS,
    twilio:
      sid && token && sender
        ? {
            baseUrl: e.TWILIO_API_URL.replace(/\/+$/, ''),
            accountSid: sid,
            authToken: token,
            sender,
            statusCallback: e.TWILIO_STATUS_CALLBACK,
          }
        : undefined,
  };
}

/** The bank: the provider, its notifications' secret, the collection account customers send SEPA deposits to. */
export function bankConfig(e: z.output<typeof bankSchema>) {
  if (e.BANK_PROVIDER === 'external' && !e.BANK_WEBHOOK_SECRET)
    throw new ConfigError(
      'Invalid configuration: BANK_WEBHOOK_SECRET: BANK_WEBHOOK_SECRET is required with BANK_PROVIDER=external',
    );
  return {
    provider: e.BANK_PROVIDER,
    webhookSecret: e.BANK_WEBHOOK_SECRET,
    collection: { iban: e.BANK_COLLECTION_IBAN, bic: e.BANK_COLLECTION_BIC, name: e.BANK_COLLECTION_NAME },
  };
}

/** The card program: the issuer, its simulator's demo settings, the fees and limits. */
export function cardConfig(e: z.output<typeof cardSchema>, marqeta: CardConfig['marqeta']): CardConfig {
  return {
    issuer: e.CARD_ISSUER,
    autoApproveSeconds: e.CARD_AUTO_APPROVE_SECONDS,
    simShipSeconds: e.CARD_SIM_SHIP_SECONDS,
    pollMs: e.CARD_POLL_MS,
    issuerTimeoutMs: e.CARD_ISSUER_TIMEOUT_MS,
    fees: {
      activationFee: e.CARD_ACTIVATION_FEE,
      annualFee: e.CARD_ANNUAL_FEE,
      topupFee: e.CARD_TOPUP_FEE,
      topupLimit: e.CARD_TOPUP_LIMIT,
      loadLimit: e.CARD_LOAD_LIMIT,
      eurPerUsdt: e.CARD_EUR_PER_USDT,
    },
    topupSettleSeconds: e.CARD_TOPUP_SETTLE_SECONDS,
    marqeta,
  };
}
