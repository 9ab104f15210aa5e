import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type MigrationSet, prepareSchema } from '@exchange/server/provider-kit';
import type pg from 'pg';

/**
 * The simulators' own migrations (`packages/provider-sims/migrations`), recorded in `sim_schema_migrations`: the
 * tables of every simulator here, apart from the exchange's schema, which holds none of them (issue 34). Applied
 * by the exchange's runner, as the owner of the schema, under its migration lock, wherever a simulator is started:
 * the exchange's start when its composition mounts one (compose-providers.ts), or a standalone simulator
 * ({@link prepareSimulatorSchema}). Found through the package's name, so that the exchange's built bundle (which
 * holds this file's code, not its folder) reads the same files.
 */
export const SIMULATOR_MIGRATIONS: MigrationSet = {
  name: 'provider-sims',
  table: 'sim_schema_migrations',
  dir: pathToFileURL(
    `${path.dirname(
      createRequire(import.meta.url).resolve(
        '@exchange/provider-sims/migrations/0001_provider_simulators.sql',
      ),
    )}/`,
  ),
};

/**
 * Brings the simulators' tables up to date for a standalone simulator on the exchange's database: with
 * `ownerUrl` (DATABASE_OWNER_URL) the owner migrates and grants the role of `db` its rows; without one, the role
 * of `db` migrates if it owns the schema, and a restricted role only checks that nothing is pending.
 * @returns the migrations applied.
 * @throws when migrations are pending and no role here may apply them.
 */
export function prepareSimulatorSchema(
  db: pg.Pool,
  ownerUrl: string | undefined,
  log: { info(msg: string): void; warn(msg: string): void },
): Promise<string[]> {
  return prepareSchema(db, ownerUrl, log, [SIMULATOR_MIGRATIONS]);
}
