import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { E2E_WORKERS } from './e2e/support/workers.ts';

/**
 * Unit and integration files run one per core at once. Vitest's default keeps a core for itself (one file at a
 * time on a 2-core machine), but an integration file spends much of its time waiting on PostgreSQL, timers and
 * child processes, so a second file fills that time. Both projects run in the same group and must have the same
 * number.
 */
const WORKERS = Math.max(2, availableParallelism());

const INTEGRATION = 'apps/server/test/integration';

/**
 * What the four integration projects share: their global setup, which starts one embedded PostgreSQL with a
 * migrated template for all four (and builds the server if a source file changed), the cores that tests start running their projector thread from the
 * build (support/built-projector.ts), and their time limits.
 */
const INTEGRATION_COMMON = {
  globalSetup: ['apps/server/test/support/global-setup.ts'],
  setupFiles: ['apps/server/test/support/built-projector.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

/** An integration test file by its name. */
function integrationFile(name: string): string {
  return `${INTEGRATION}/${name}.test.ts`;
}

/**
 * Integration files that run several server processes (a cluster, a standby core, HAProxy, NATS, a database killed
 * under the app) or measure how soon something happens (a takeover, a refusal within a second, the event loop's
 * longest turn): they run one at a time, after all others, with the machine to themselves as before.
 */
const ALONE = [
  'cluster',
  'cluster-balancer',
  'core-failover',
  'core-nats',
  'database-kill',
  'mass-payouts',
  'metrics-outage',
  'simulator-wakeups',
].map(integrationFile);

/**
 * Integration files that start server processes, an embedded PostgreSQL of their own and the command line, and
 * measure nothing by the clock: too heavy to run beside the parallel integration files (their time limits
 * were passed on a loaded machine), light enough to run beside each other, two at a time after those files.
 * backup-restore (the longest, about 110 s, started first as the largest file) has the first worker to itself;
 * built-server and full-disk (server processes too) join the others on the second, which otherwise sat idle for
 * the last 45 s or so of the group.
 */
const HEAVY = ['backup-restore', 'cli-locate', 'restart', 'built-server', 'full-disk'].map(integrationFile);

/**
 * Integration files that replace a module of the server (`vi.mock`): a module replaced for one file must not be the
 * one the next file gets, so these run isolated, each with modules of its own. Found by reading the files, so a new
 * one cannot be forgotten.
 */
const MOCKING = readdirSync(INTEGRATION)
  .filter((name) => name.endsWith('.test.ts'))
  .map((name) => `${INTEGRATION}/${name}`)
  .filter((file) => /\bvi\.(?:doMock|mock)\(/.test(readFileSync(file, 'utf8')));

/** Three tiers (DESIGN.md §9): unit beside the code, integration against real PostgreSQL, e2e in Chromium. */
export default defineConfig({
  test: {
    // Each project has a module runner of its own, which transformed the same server files again (the four
    // integration projects and e2e's support code): a transformed file is kept on disk by its content, and every
    // project and later run takes it from there (node_modules/.experimental-vitest-cache).
    experimental: { fsModuleCache: true },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/test/**/*.test.ts', 'apps/*/test/unit/**/*.test.ts'],
          environment: 'node',
          // Property tests run hundreds of cases each: on a loaded 2-core machine one took over Vitest's default 5 s.
          testTimeout: 20_000,
          maxWorkers: WORKERS,
          // A worker's files share the modules they import (none replaces a module; the one that sets TZ puts it
          // back): importing them afresh for each file was most of this project's time.
          isolate: false,
        },
      },
      {
        test: {
          name: 'integration',
          include: [`${INTEGRATION}/**/*.test.ts`],
          exclude: [...configDefaults.exclude, ...ALONE, ...HEAVY, ...MOCKING],
          ...INTEGRATION_COMMON,
          maxWorkers: WORKERS,
          // A worker's files share the modules they import: each file importing the whole server afresh (over a
          // thousand modules, the providers' SDKs among them) took about three seconds of every file. Each file
          // still has its own database and app; what a file changes of a shared object it puts back (spies are
          // restored, no file changes process.env).
          isolate: false,
        },
      },
      {
        test: {
          name: 'integration-isolated',
          include: MOCKING,
          ...INTEGRATION_COMMON,
          maxWorkers: WORKERS,
        },
      },
      {
        test: {
          name: 'integration-heavy',
          include: HEAVY,
          ...INTEGRATION_COMMON,
          maxWorkers: 2,
          // After the projects of group 0 (unit and integration), before the files that run alone.
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          // `--project 'integration*'` runs the four integration projects.
          name: 'integration-alone',
          include: ALONE,
          ...INTEGRATION_COMMON,
          // One file at a time, after the heavy files; the files share the modules they import.
          maxWorkers: 1,
          fileParallelism: false,
          isolate: false,
          sequence: { groupOrder: 2 },
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/specs/**/*.test.ts'],
          globalSetup: ['e2e/support/global-setup.ts'],
          // Browser flows with several logins and dialogs; no test waits out a limit (the server's clock moves).
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // One file at a time per worker, each worker on an app of its own (support/suite-app.ts).
          maxWorkers: E2E_WORKERS,
          // The spec files share the modules they import (Playwright, pg, the support code): about a second of import
          // per file otherwise. No spec replaces a module or changes process.env; each launches its own browser.
          isolate: false,
        },
      },
    ],
  },
});
