import { inject } from 'vitest';

/** One app the suite started (its own embedded PostgreSQL, data folder and clock). */
export interface SuiteApp {
  /** Where the app answers, e.g. http://127.0.0.1:41234. */
  baseUrl: string;
  /** The app's PostgreSQL, for arranging what no screen can (a user's verification level). */
  databaseUrl: string;
  /** The app's environment for operator commands (`npm run cli -- …`) against its database. */
  cliEnv: Record<string, string>;
}

/** The app of this worker's files: Vitest numbers its workers from 1 (`VITEST_POOL_ID`). */
export function suiteApp(): SuiteApp {
  const apps = inject('apps');
  const worker = Number(process.env.VITEST_POOL_ID ?? 1);
  const app = apps[(worker - 1) % apps.length];
  if (!app) throw new Error('the e2e global setup started no app');
  return app;
}
