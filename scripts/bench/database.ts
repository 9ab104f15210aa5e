import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BITCOIN_SIMULATOR_MIGRATIONS, TRON_SIMULATOR_MIGRATIONS } from '@exchange/chain-sim';
import { SIMULATOR_MIGRATIONS } from '@exchange/provider-sims/schema';
import {
  createPool,
  freePort,
  migrate,
  migrateSet,
  seedReferenceData,
  startEmbeddedPostgres,
} from '@exchange/server/harness';

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
