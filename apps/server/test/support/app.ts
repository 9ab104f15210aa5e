import type { FastifyInstance } from 'fastify';
import { noCaptcha } from '../../src/adapters/captcha/port.ts';
import { createOutboxMail } from '../../src/adapters/mail/outbox.ts';
import { createOutboxSms } from '../../src/adapters/sms/port.ts';
import { type AppDeps, buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { currentUserResolver } from '../../src/http/auth.ts';
import { loadBodyKey } from '../../src/http/body-encryption.ts';
import { ApiKeyAuthenticator } from '../../src/modules/api-keys/hmac.ts';
import { loadServerKeys } from '../../src/modules/identity/crypto.ts';
import { SessionStore } from '../../src/modules/identity/sessions.ts';
import { StreamHub } from '../../src/modules/ranger/hub.ts';
import { createTestDatabase, type TestDatabase } from './db.ts';

/** An app over its own test database, driven with `app.inject` (no socket) unless a test listens. */
export interface TestApp {
  app: FastifyInstance;
  db: TestDatabase;
  deps: AppDeps;
  close(): Promise<void>;
}

/** Builds the real app against a fresh database; `overrides` replace individual dependencies. */
export async function createTestApp(
  overrides: Partial<AppDeps> = {},
  env: Record<string, string> = {},
): Promise<TestApp> {
  const db = await createTestDatabase();
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent', ...env });
  const sessions = overrides.sessions ?? new SessionStore(db.pool);
  const keys = await loadServerKeys(db.pool, config.secretKey);
  const deps: AppDeps = {
    config,
    db: db.pool,
    mail: createOutboxMail(db.pool),
    sms: createOutboxSms(db.pool),
    captcha: noCaptcha,
    keys,
    sessions,
    apiKeys: new ApiKeyAuthenticator(db.pool, keys),
    bodyKey: await loadBodyKey(db.pool, keys),
    hub: new StreamHub(),
    supportEmail: config.supportEmail,
    currentUser: currentUserResolver(db.pool, sessions),
    ...overrides,
  };
  const app = await buildApp(deps);
  await app.ready();
  return {
    app,
    db,
    deps,
    async close() {
      await app.close();
      await db.drop();
    },
  };
}
