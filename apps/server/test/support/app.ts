import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../src/app-deps.ts';
import { TestClock } from '../../src/clock.ts';
import { composeApp } from '../../src/compose.ts';
import { loadConfig } from '../../src/config.ts';
import { createTestDatabase, type TestDatabase } from './db.ts';
import { startTestSigner, type TestSigner } from './signer.ts';

/** An app over its own test database, driven with `app.inject` (no socket) unless a test listens. */
export interface TestApp {
  app: FastifyInstance;
  db: TestDatabase;
  deps: AppDeps;
  /**
   * The app's clock: every rule that measures time (rate-limit windows, code expiry, lockouts, sessions, holds,
   * due dates) reads it, so a test moves it instead of waiting or backdating rows. A test's own `clock` override.
   */
  clock: TestClock;
  /** The app's signer (the real one, with the test mnemonic), unless the test named its own SIGNER_URL. */
  signer: TestSigner | undefined;
  /**
   * The app's last error-level log lines (an unexpected error behind a 500 among them), kept in memory when the
   * test set neither its own log stream nor LOG_LEVEL: a failing test can say why the server failed.
   */
  errors(): string[];
  close(): Promise<void>;
}

/** The configuration every test app starts with, plus `env`. */
export function testConfig(env: Record<string, string> = {}) {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    WEB_DIST: '/nonexistent',
    // The identity tests post forms without solving a captcha; captcha.test.ts turns ALTCHA on itself.
    CAPTCHA_TYPE: 'none',
    // Chains move only when a test mines or ticks the wallet.
    WALLET_POLL_MS: '0',
    SIM_BLOCK_MS: '0',
    // The annual card fee runs only when a test ticks it.
    CARD_POLL_MS: '0',
    // A Hardhat devnet only where a test asks for one (EVM_DEVNET=true).
    EVM_DEVNET: 'false',
    // Withdrawals to a just-saved address, of just-deposited funds, would wait for staff: the review tests
    // (admin-withdrawals) turn these rules on.
    WITHDRAW_REVIEW_NEW_BENEFICIARY_HOURS: '0',
    WITHDRAW_REVIEW_PASS_THROUGH_MINUTES: '0',
    ...env,
  });
}

/** Builds the real app against a fresh database; `overrides` replace individual dependencies. */
export async function createTestApp(
  overrides: Partial<AppDeps> = {},
  env: Record<string, string> = {},
  /** An existing test database (a restart of the app against the same data). */
  existing?: TestDatabase,
): Promise<TestApp> {
  const db = existing ?? (await createTestDatabase({ withoutTemplateKeys: env.SECRET_KEY !== undefined }));
  const signer = env.SIGNER_URL ? undefined : await startTestSigner(db.pool);
  const config = testConfig({
    ...(signer ? { SIGNER_URL: signer.url, SIGNER_TOKEN: signer.token } : {}),
    ...env,
  });
  if (overrides.clock && !(overrides.clock instanceof TestClock))
    throw new Error('a test app runs on a TestClock');
  const clock = overrides.clock ?? new TestClock();
  const errors: string[] = [];
  const keepErrors = !overrides.logStream && env.LOG_LEVEL === undefined;
  const logged = keepErrors
    ? {
        ...config,
        logLevel: 'error' as const,
        logFormat: 'json' as const,
      }
    : config;
  const errorStream = {
    write(line: string) {
      errors.push(line.trim());
      if (errors.length > 20) errors.shift();
    },
  };
  const { app, deps } = await composeApp(logged, db.pool, {
    clock,
    ...(keepErrors ? { logStream: errorStream } : {}),
    ...overrides,
  });
  await app.ready();
  return {
    app,
    db,
    deps,
    clock,
    signer,
    errors: () => [...errors],
    async close() {
      await app.close();
      await signer?.close();
      await db.drop();
    },
  };
}
