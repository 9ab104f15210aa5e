import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildServerIfStale } from '@exchange/server/build';
import {
  auditLedger,
  createPool,
  freePort,
  startEmbeddedPostgres,
  startServerProcess,
  writeTestCountryDb,
} from '@exchange/server/harness';
import { WEB_DIST } from '@exchange/web/build-output';
import type { TestProject } from 'vitest/node';
import type { SuiteApp } from './suite-app.ts';
import { E2E_WORKERS } from './workers.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The apps started for the run, one per worker ({@link suiteApp} picks this worker's). */
    apps: SuiteApp[];
  }
}

/**
 * Starts the whole app (embedded PostgreSQL, APIs, built web app) once per e2e worker, all at once, and after the
 * run checks that each app's ledger still balances. The apps and the operator's command line run from the built
 * server, as `npm start` and `npm run cli` do: built here first if a source file changed.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!existsSync(path.join(WEB_DIST, 'index.html'))) {
    throw new Error('apps/web/dist is missing: run `npm run build:web` first (npm test does this)');
  }
  await buildServerIfStale();
  const started = await Promise.allSettled(Array.from({ length: E2E_WORKERS }, () => startApp()));
  const apps = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await Promise.all(apps.map((app) => app.stop()));
    throw failed.reason;
  }
  project.provide(
    'apps',
    apps.map((app) => app.provided),
  );
  return async () => {
    const failures = (await Promise.all(apps.map((app) => app.stop()))).flat();
    if (failures.length > 0) {
      // Vitest only logs an error thrown while closing; the exit code must say it too.
      process.exitCode = 1;
      throw new Error(`ledger audit failed after the e2e run: ${JSON.stringify(failures)}`);
    }
  };
}

/** One app in a data folder of its own; `stop` audits its ledger, stops it and removes the folder. */
async function startApp(): Promise<{ provided: SuiteApp; stop: () => Promise<unknown[]> }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'exchange-e2e-'));
  await chmod(dataDir, 0o755);
  const port = await freePort();
  const pgPort = await freePort();
  const where = { DATA_DIR: dataDir, PORT: String(port), EMBEDDED_PG_PORT: String(pgPort) };
  // A MaxMind DB country database written by the test support: documentation ranges only (198.51.100.0/24 AT,
  // 203.0.113.0/24 DE, 192.0.2.0/24 FR), so the suite's usual client addresses (198.18.0.0/15) have no country.
  const countryDb = path.join(dataDir, 'GeoLite2-Country-test.mmdb');
  writeTestCountryDb(countryDb);
  const server = await startServerProcess(
    {
      ...where,
      // NODE_ENV=test: the server runs on a clock the tests move (support/clock.ts) instead of waiting.
      NODE_ENV: 'test',
      // The trading tests start from the demo users' seeded balances and empty books.
      DEMO_BOOKS: 'false',
      // Each browser context stands for a customer behind a proxy, with an address of its own (support/browser.ts).
      TRUST_PROXY: 'loopback',
      // The captcha's proof of work at its lowest (about 16 hashes instead of 65,000): the widget, the answer's
      // check and its single use are the same; the work was a tenth of the browser's CPU in the login specs.
      ALTCHA_DIFFICULTY_BITS: '4',
      // Nearly every spec file logs the two demo users in (2 attempts each): more than 20 in 10 minutes.
      LOGIN_ATTEMPTS_PER_WINDOW: '1000',
      // Logins from a new country mail a notice (security-log-country.test.ts).
      GEOIP_COUNTRY_DB: countryDb,
      // The simulated card issuer ships a paid card after a second and delivers it a second later.
      CARD_SIM_SHIP_SECONDS: '1',
      // ...and settles a top-up on the card after a second (30 minutes by default, as the spec says).
      CARD_TOPUP_SETTLE_SECONDS: '1',
      // A withdrawal to a just-saved address would wait for staff review; the console's tests use the limits.
      WITHDRAW_REVIEW_NEW_BENEFICIARY_HOURS: '0',
      WITHDRAW_REVIEW_PASS_THROUGH_MINUTES: '0',
      // The suite stands on these starts: on a busy machine (the other tiers running, load above 10 on two
      // cores) it once took over the default minute.
    },
    180_000,
  );
  // Attaching to the app's running server only reads its URL; it starts nothing.
  const quiet = { info: () => {}, warn: () => {} };
  const database = await startEmbeddedPostgres(dataDir, pgPort, quiet, { attach: true });
  return {
    provided: { baseUrl: `http://127.0.0.1:${port}`, databaseUrl: database.url, cliEnv: where },
    async stop() {
      // Money must be conserved after everything the browser tests did (issue: the audit passes after the suite).
      const pool = createPool(database.url, 1);
      const failures = await auditLedger(pool).finally(() => pool.end());
      server.child.kill('SIGTERM');
      await server.exited;
      await rm(dataDir, { recursive: true, force: true });
      return failures;
    },
  };
}
