import { defineConfig } from 'vitest/config';

/** Three tiers (DESIGN.md §9): unit beside the code, integration against real PostgreSQL, e2e in Chromium. */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/test/**/*.test.ts', 'apps/*/test/unit/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['apps/server/test/integration/**/*.test.ts'],
          globalSetup: ['apps/server/test/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
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
          fileParallelism: false,
        },
      },
    ],
  },
});
