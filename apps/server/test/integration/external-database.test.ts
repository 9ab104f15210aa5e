import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { missing } from '../support/required.ts';

/** The machine's own PostgreSQL (trust auth), used to test the DATABASE_URL path; skipped when absent. */
const EXTERNAL = process.env.EXTERNAL_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const NAME = `exchange_ext_${process.pid}`;
const ROLES = `exchange_ext_${process.pid}_roles`;
const OWNER = `exchange_ext_owner_${process.pid}`;
const APP = `exchange_ext_app_${process.pid}`;

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

const cleanUp = [
  `drop database if exists ${NAME} with (force)`,
  `drop database if exists ${ROLES} with (force)`,
  `drop role if exists ${APP}`,
  `drop role if exists ${OWNER}`,
];
const available = await admin([
  ...cleanUp,
  `create database ${NAME}`,
  // The operator's part (README: External PostgreSQL): an owner with its database, and a login for the app.
  `create role ${OWNER} login`,
  `create role ${APP} login`,
  `create database ${ROLES} owner ${OWNER}`,
]);

const urlOf = (name: string, user?: string) => {
  const url = new URL(EXTERNAL.replace(/\/[^/]*$/, `/${name}`));
  if (user) url.username = user;
  return url.toString();
};
const collect = () => {
  const said: string[] = [];
  return { said, log: { info: (m: string) => said.push(m), warn: (m: string) => said.push(`warn: ${m}`) } };
};

describe.skipIf(missing(available, `PostgreSQL at ${EXTERNAL}`))(
  'external PostgreSQL through DATABASE_URL',
  () => {
    afterAll(() => admin(cleanUp));

    it('migrates, seeds and reopens without the embedded server; warns that one role owns everything', async () => {
      const url = urlOf(NAME);
      const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: url, DATA_DIR: '/nonexistent-data' });
      const { said, log } = collect();
      const first = await openDatabase(config, log);
      expect(first.embedded).toBe(false);
      expect(first.demoUsers.length).toBe(2);
      const markets = await first.pool.query('select count(*)::int as n from markets');
      await first.close();
      const second = await openDatabase(config, log);
      const again = await second.pool.query('select count(*)::int as n from markets');
      expect(again.rows[0].n).toBe(markets.rows[0].n);
      await second.close();
      // Once per start, and only this one warning.
      expect(said.filter((m) => m.startsWith('warn:'))).toEqual([
        expect.stringContaining("the app runs with the owner's rights"),
        expect.stringContaining("the app runs with the owner's rights"),
      ]);
    });

    it('with DATABASE_OWNER_URL, migrates as the owner and runs the app as a role that cannot change the schema or the trail', async () => {
      const env = {
        NODE_ENV: 'test',
        DATABASE_URL: urlOf(ROLES, APP),
        DATABASE_OWNER_URL: urlOf(ROLES, OWNER),
        DATA_DIR: '/nonexistent-data',
      };
      const { said, log } = collect();
      const database = await openDatabase(loadConfig(env), log);
      try {
        expect(said.filter((m) => m.startsWith('warn:'))).toEqual([]);
        expect(new URL(database.adminUrl).username).toBe(OWNER);
        const owners = await database.pool.query(
          `select distinct pg_get_userbyid(relowner) as owner from pg_class where relnamespace = 'public'::regnamespace`,
        );
        expect(owners.rows).toEqual([{ owner: OWNER }]);
        for (const statement of [
          'drop trigger staff_actions_no_update on staff_actions',
          'alter table users add column hacked boolean',
          `update staff_actions set action = 'x'`,
          'delete from staff_actions',
          'delete from ledger_postings',
          'drop table staff_actions',
        ]) {
          await expect(database.pool.query(statement), statement).rejects.toMatchObject({ code: '42501' });
        }
        expect((await database.pool.query('select count(*)::int as n from users')).rows[0].n).toBe(2);
      } finally {
        await database.close();
      }

      // Another process with only the app's role (a split deployment's api) starts on the migrated schema.
      const { said: apiSaid, log: apiLog } = collect();
      const { DATABASE_OWNER_URL: _owner, ...appOnly } = env;
      const api = await openDatabase(loadConfig({ ...appOnly, SEED_DEMO: 'false' }), apiLog);
      await api.close();
      expect(apiSaid.filter((m) => m.startsWith('warn:'))).toEqual([]);
    });

    it('refuses to start as a restricted role when migrations are pending and no owner may apply them', async () => {
      await admin([`drop database if exists ${NAME}_fresh`, `create database ${NAME}_fresh owner ${OWNER}`]);
      try {
        const config = loadConfig({
          NODE_ENV: 'test',
          DATABASE_URL: urlOf(`${NAME}_fresh`, APP),
          DATA_DIR: '/nonexistent-data',
        });
        await expect(openDatabase(config, collect().log)).rejects.toThrow(
          /are pending and the role of DATABASE_URL .* may not apply them: set DATABASE_OWNER_URL/,
        );
        // Migrated by its owner alone (as before this version), the app's role has no grants until a start with both.
        const owner = await openDatabase(
          loadConfig({
            NODE_ENV: 'test',
            DATABASE_URL: urlOf(`${NAME}_fresh`, OWNER),
            DATA_DIR: '/nonexistent-data',
          }),
          collect().log,
        );
        await owner.close();
        await expect(openDatabase(config, collect().log)).rejects.toThrow(
          /the role of DATABASE_URL .* has no grants yet: start a process with DATABASE_OWNER_URL first/,
        );
      } finally {
        await admin([`drop database if exists ${NAME}_fresh with (force)`]);
      }
    });
  },
);
