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

/**
 * Integration files that run several server processes (a cluster, a standby core, HAProxy, NATS, two apps for the
 * command line to choose from, an app with its backups and restores) or measure how soon something happens (a takeover, a refusal within a second, the
 * event loop's longest turn): they run one at a time, after the others, with the machine to themselves as before.
 */
const ALONE = [
  'backup-restore',
  'cli-locate',
  'cluster',
  'cluster-balancer',
  'core-failover',
  'core-nats',
  'database-kill',
  'mass-payouts',
  'metrics-outage',
  'simulator-wakeups',
].map((name) => `apps/server/test/integration/${name}.test.ts`);

/** Three tiers (DESIGN.md §9): unit beside the code, integration against real PostgreSQL, e2e in Chromium. */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/test/**/*.test.ts', 'apps/*/test/unit/**/*.test.ts'],
          environment: 'node',
          // Property tests run hundreds of cases each: on a loaded 2-core machine one took over Vitest's default 5 s.
          testTimeout: 20_000,
          maxWorkers: WORKERS,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['apps/server/test/integration/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...ALONE],
          globalSetup: ['apps/server/test/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          maxWorkers: WORKERS,
        },
      },
      {
        test: {
          // `--project 'integration*'` runs both integration projects.
          name: 'integration-alone',
          include: ALONE,
          globalSetup: ['apps/server/test/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: false,
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
        },
      },
    ],
  },
});
