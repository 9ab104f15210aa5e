import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { createAltchaCaptcha } from './adapters/captcha/altcha.ts';
import { type CaptchaPort, noCaptcha } from './adapters/captcha/port.ts';
import { createRecaptcha } from './adapters/captcha/recaptcha.ts';
import { createOutboxMail } from './adapters/mail/outbox.ts';
import { createSmtpMail } from './adapters/mail/smtp.ts';
import { createOutboxSms } from './adapters/sms/port.ts';
import { type AppDeps, buildApp } from './app.ts';
import type { Config } from './config.ts';
import { startCore } from './core/index.ts';
import { currentUserResolver } from './http/auth.ts';
import { loadBodyKey } from './http/body-encryption.ts';
import { ApiKeyAuthenticator } from './modules/api-keys/hmac.ts';
import { loadServerKeys } from './modules/identity/crypto.ts';
import { SessionStore } from './modules/identity/sessions.ts';
import { MarketData } from './modules/market-data/service.ts';
import { StreamHub } from './modules/ranger/hub.ts';
import { Wallet } from './modules/wallet/index.ts';

/**
 * The composition root: builds every dependency from the configuration and a database pool, then the app.
 * `overrides` replace single dependencies (tests, benchmarks).
 */
export async function composeApp(
  config: Config,
  db: pg.Pool,
  overrides: Partial<AppDeps> = {},
): Promise<{ app: FastifyInstance; deps: AppDeps }> {
  const sessions = overrides.sessions ?? new SessionStore(db);
  const keys = overrides.keys ?? (await loadServerKeys(db, config.secretKey));
  const core = overrides.core ?? (await startCore(db));
  const hub = overrides.hub ?? new StreamHub();
  const mail =
    overrides.mail ??
    (config.smtpUrl ? createSmtpMail(config.smtpUrl, config.mailFrom, db) : createOutboxMail(db));
  const wallet =
    overrides.wallet ??
    (await Wallet.start({
      db,
      core,
      keys,
      mail,
      hub,
      log: { warn: (m) => console.warn(m) },
      pollMs: config.walletPollMs,
      simBlockMs: config.simBlockMs,
    }));
  const deps: AppDeps = {
    config,
    db,
    mail,
    sms: createOutboxSms(db),
    captcha: captchaFor(config, keys.captchaKey),
    keys,
    sessions,
    apiKeys: new ApiKeyAuthenticator(db, keys),
    bodyKey: await loadBodyKey(db, keys),
    core,
    marketData: overrides.marketData ?? (await MarketData.start(db, core, hub)),
    hub,
    wallet,
    supportEmail: config.supportEmail,
    currentUser: currentUserResolver(db, sessions),
    ...overrides,
  };
  const app = await buildApp(deps);
  app.addHook('onClose', () => wallet.stop());
  return { app, deps };
}

/** The captcha adapter for CAPTCHA_TYPE: ALTCHA proof-of-work (self-hosted), reCAPTCHA, or none. */
function captchaFor(config: Config, key: Buffer): CaptchaPort {
  if (config.captchaType === 'altcha') return createAltchaCaptcha(key.toString('hex'));
  if (config.captchaType === 'recaptcha' && config.recaptcha) return createRecaptcha(config.recaptcha.secret);
  return noCaptcha;
}
