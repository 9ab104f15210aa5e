import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../../apps/server/src/db/embedded.ts';
import { migrate, migrateSet } from '../../apps/server/src/db/migrate.ts';
import { createPool } from '../../apps/server/src/db/pool.ts';
import { seedReferenceData } from '../../apps/server/src/db/seed.ts';
import { freePort } from '../../apps/server/test/support/ports.ts';
import {
  BITCOIN_SIMULATOR_MIGRATIONS,
  TRON_SIMULATOR_MIGRATIONS,
} from '../../packages/chain-sim/src/schema.ts';
import { SIMULATOR_MIGRATIONS } from '../../packages/provider-sims/src/schema.ts';

/** A scratch embedded PostgreSQL with the schema (the simulators' too) and reference data, for one benchmark run. */
export async function benchDatabase() {
  const dir = await mkdtemp(path.join(tmpdir(), 'exchange-bench-'));
  await chmod(dir, 0o755);
  const server = await startEmbeddedPostgres(dir, await freePort(), { info: () => {}, warn: () => {} });
  const admin = createPool(server.url.replace(/\/exchange$/, '/postgres'), 1);
  let n = 0;
  return {
    /**
     * A fresh migrated database. The previous one is dropped and the cluster checkpointed first, so that no run
     * pays for the one before it (autovacuum of its tables, a checkpoint of its writes).
     */
    async fresh() {
      if (n > 0) await admin.query(`drop database if exists bench_${n} with (force)`);
      await admin.query('checkpoint');
      const name = `bench_${++n}`;
      await admin.query(`create database ${name}`);
      const url = server.url.replace(/\/exchange$/, `/${name}`);
      const pool = createPool(url, 10);
      await migrate(pool);
      // The simulators' own tables (providers and chains): the benchmarked app uses them, as the default start does.
      for (const set of [SIMULATOR_MIGRATIONS, BITCOIN_SIMULATOR_MIGRATIONS, TRON_SIMULATOR_MIGRATIONS])
        await migrateSet(pool, set);
      await seedReferenceData(pool);
      return { url, pool };
    },
    async close() {
      await admin.end();
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
