import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { cli, sql } from '../support/live.ts';
import { missing } from '../support/required.ts';

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

const OWNER = `exchange_bk_owner_${process.pid}`;
const APP = `exchange_bk_app_${process.pid}`;
const drop = [
  `drop database if exists ${SOURCE} with (force)`,
  `drop database if exists ${TARGET} with (force)`,
  `drop database if exists ${SOURCE}_roles with (force)`,
  `drop database if exists ${TARGET}_roles with (force)`,
  `drop role if exists ${APP}`,
  `drop role if exists ${OWNER}`,
];
const available = await admin([
  ...drop,
  `create database ${SOURCE}`,
  `create database ${TARGET}`,
  `create role ${OWNER} login`,
  `create role ${APP} login`,
  `create database ${SOURCE}_roles owner ${OWNER}`,
  `create database ${TARGET}_roles owner ${OWNER}`,
]);

describe.skipIf(missing(available, `PostgreSQL at ${EXTERNAL}`))(
  'backup and restore of an external PostgreSQL',
  () => {
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

    it('with DATABASE_OWNER_URL, backs up and restores as the owner; the app role gets its grants at the next start', async () => {
      const as = (name: string, user: string) => {
        const url = new URL(urlOf(name));
        url.username = user;
        return url.toString();
      };
      const env = (name: string) => ({
        DATABASE_URL: as(name, APP),
        DATABASE_OWNER_URL: as(name, OWNER),
        DATA_DIR: '/nonexistent-data',
        BACKUP_DIR: backupDir,
      });
      const quiet = { info: () => {}, warn: () => {} };
      const source = await openDatabase(loadConfig({ NODE_ENV: 'test', ...env(`${SOURCE}_roles`) }), quiet);
      await source.close();
      const backup = cli(env(`${SOURCE}_roles`), ['backup']);
      expect(backup.status, backup.stderr).toBe(0);
      const name = /backup (backup-\S+) written/.exec(backup.stdout)?.[1] ?? '';

      const restored = cli(env(`${TARGET}_roles`), ['restore', name]);
      expect(restored.status, restored.stderr).toBe(0);
      const owners = await sql(
        urlOf(`${TARGET}_roles`),
        `select distinct pg_get_userbyid(relowner) as owner from pg_class where relnamespace = 'public'::regnamespace`,
      );
      expect(owners).toEqual([{ owner: OWNER }]);
      // Restored without grants; the next start gives the app's role exactly its own, and nothing more.
      const target = await openDatabase(loadConfig({ NODE_ENV: 'test', ...env(`${TARGET}_roles`) }), quiet);
      try {
        expect((await target.pool.query('select count(*)::int as n from users')).rows[0].n).toBe(2);
        await expect(target.pool.query('delete from staff_actions')).rejects.toMatchObject({ code: '42501' });
        await expect(target.pool.query('drop table trades')).rejects.toMatchObject({ code: '42501' });
      } finally {
        await target.close();
      }
    });
  },
);
