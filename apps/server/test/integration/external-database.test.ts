import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';

/** The machine's own PostgreSQL (trust auth), used to test the DATABASE_URL path; skipped when absent. */
const EXTERNAL = process.env.EXTERNAL_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const NAME = `exchange_ext_${process.pid}`;

async function reachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: EXTERNAL, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.query(`drop database if exists ${NAME}`);
    await client.query(`create database ${NAME}`);
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

const available = await reachable();
if (!available) console.warn(`skipping external DATABASE_URL test: no PostgreSQL at ${EXTERNAL}`);

describe.skipIf(!available)('external PostgreSQL through DATABASE_URL', () => {
  afterAll(async () => {
    const client = new pg.Client({ connectionString: EXTERNAL });
    await client.connect();
    await client.query(`drop database if exists ${NAME} with (force)`);
    await client.end();
  });

  it('migrates, seeds and reopens without the embedded server', async () => {
    const url = EXTERNAL.replace(/\/[^/]*$/, `/${NAME}`);
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: url, DATA_DIR: '/nonexistent-data' });
    const log = { info: () => {}, warn: () => {} };
    const first = await openDatabase(config, log);
    expect(first.embedded).toBe(false);
    expect(first.demoUsers.length).toBe(2);
    const markets = await first.pool.query('select count(*)::int as n from markets');
    await first.close();
    const second = await openDatabase(config, log);
    const again = await second.pool.query('select count(*)::int as n from markets');
    expect(again.rows[0].n).toBe(markets.rows[0].n);
    await second.close();
  });
});
