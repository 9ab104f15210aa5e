import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * A chain simulator's own migrations: a folder of `NNNN_name.sql` files and the table that records them, in the
 * shape of the exchange's `MigrationSet` (apps/server/src/db/migrate.ts), whose runner applies them as the owner of
 * the schema, under its migration lock, when a start uses that simulator (no node's URL configured for its chain:
 * modules/wallet/networks.ts, `chainSimulatorSchemas`). The exchange's own migrations make none of their tables
 * (issue 34).
 */
export interface ChainSimulatorMigrations {
  name: string;
  table: string;
  dir: URL;
}

/** The folder of `file` under packages/chain-sim/migrations, found through the package (the built bundle too). */
function folderOf(file: string): URL {
  const found = createRequire(import.meta.url).resolve(`@exchange/chain-sim/migrations/${file}`);
  return pathToFileURL(`${path.dirname(found)}/`);
}

/** The Bitcoin Core simulator's tables (`btcsim_*`), recorded in `btcsim_schema_migrations`. */
export const BITCOIN_SIMULATOR_MIGRATIONS: ChainSimulatorMigrations = {
  name: 'chain-sim/bitcoin',
  table: 'btcsim_schema_migrations',
  dir: folderOf('bitcoin/0001_bitcoin_simulator.sql'),
};

/** The java-tron simulator's tables (`tronsim_*`), recorded in `tronsim_schema_migrations`. */
export const TRON_SIMULATOR_MIGRATIONS: ChainSimulatorMigrations = {
  name: 'chain-sim/tron',
  table: 'tronsim_schema_migrations',
  dir: folderOf('tron/0001_tron_simulator.sql'),
};
