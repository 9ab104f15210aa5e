import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { cli, sql } from '../support/live.ts';

/**
 * Backups of an external PostgreSQL (DATABASE_URL): a `pg_dump` in custom format with the PostgreSQL client
 * tools on PATH, restored with `pg_restore` into an empty database only. Skipped without the machine's own
 * PostgreSQL (trust auth) on 127.0.0.1:5432.
 */
const EXTERNAL = process.env.EXTERNAL_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const SOURCE = `exchange_bk_src_${process.pid}`;
const TARGET = `exchange_bk_dst_${process.pid}`;
const urlOf = (name: string) => EXTERNAL.replace(/\/[^/]*$/, `/${name}`);

async function admin(statements: string[]): Promise<boolean> {
  const client = new pg.Client({ connectionString: EXTERNAL, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    for (const statement of statements) await client.query(statement);
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

const drop = [
  `drop database if exists ${SOURCE} with (force)`,
  `drop database if exists ${TARGET} with (force)`,
];
const available = await admin([...drop, `create database ${SOURCE}`, `create database ${TARGET}`]);
if (!available) console.warn(`skipping external backup test: no PostgreSQL at ${EXTERNAL}`);

describe.skipIf(!available)('backup and restore of an external PostgreSQL', () => {
  let backupDir: string;
  beforeAll(async () => {
    backupDir = await mkdtemp(path.join(tmpdir(), 'exchange-backup-ext-'));
    await chmod(backupDir, 0o755);
    const config = loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: urlOf(SOURCE),
      DATA_DIR: '/nonexistent-data',
    });
    const database = await openDatabase(config, { info: () => {}, warn: () => {} });
    await database.close();
  });
  afterAll(async () => {
    await admin(drop);
    await rm(backupDir, { recursive: true, force: true });
  });

  it('dumps with pg_dump, restores into an empty database only, and the audit passes there', async () => {
    const env = { DATABASE_URL: urlOf(SOURCE), DATA_DIR: '/nonexistent-data', BACKUP_DIR: backupDir };
    const backup = cli(env, ['backup']);
    expect(backup.status, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/backup (backup-\S+) written to .*: dump, /);
    const name = /backup (backup-\S+) written/.exec(backup.stdout)?.[1] ?? '';
    expect(cli(env, ['backup', 'list']).stdout).toMatch(
      new RegExp(`${name}\\s+\\S+\\s+dump\\s+.*audit passed`),
    );

    const intoItself = cli(env, ['restore', name]);
    expect(intoItself.status).toBe(1);
    expect(intoItself.stderr).toContain('restore refused: the database of DATABASE_URL is not empty');
    const withTime = cli({ ...env, DATABASE_URL: urlOf(TARGET) }, ['restore', name, '--to', 'latest']);
    expect(withTime.stderr).toContain('is a pg_dump backup: it restores to its own moment only');

    const restored = cli({ ...env, DATABASE_URL: urlOf(TARGET) }, ['restore', name]);
    expect(restored.status, restored.stderr).toBe(0);
    expect(restored.stdout).toContain('audit passed');
    const counts = (url: string) =>
      sql(
        url,
        `select (select count(*) from users)::int as users, (select count(*) from markets)::int as markets,
           (select count(*) from currencies)::int as currencies, (select count(*) from balances)::int as balances,
           (select max(name) from schema_migrations) as migration`,
      );
    expect(await counts(urlOf(TARGET))).toEqual(await counts(urlOf(SOURCE)));
  });
});
