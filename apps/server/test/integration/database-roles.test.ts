import { chmod, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { auditLedger } from '../../src/core/audit.ts';
import { openDatabase } from '../../src/db/database.ts';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { APP_ROLE, OWNER_ROLE } from '../../src/db/embedded-roles.ts';
import { migrate } from '../../src/db/migrate.ts';
import { createPool } from '../../src/db/pool.ts';
import { APPEND_ONLY_TABLES } from '../../src/db/privileges.ts';
import { seedDemoUsers, seedReferenceData } from '../../src/db/seed.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { freePort } from '../support/ports.ts';

/** What the app's role may never do, whatever a bug or an injected statement in the app tries. */
const FORBIDDEN = [
  'drop trigger staff_actions_no_update on staff_actions',
  'alter table staff_actions disable trigger staff_actions_no_update',
  'alter table users add column hacked boolean',
  'alter table balances drop constraint balances_balance_check',
  'drop table staff_actions',
  'drop function staff_actions_append_only() cascade',
  'create table hacked (id int)',
  ...APPEND_ONLY_TABLES.flatMap((table) => [
    `update ${table} set created_at = created_at`,
    `delete from ${table}`,
    `truncate ${table}`,
  ]),
  'truncate users cascade',
  `insert into schema_migrations (name) values ('9999_fake.sql')`,
  'delete from schema_migrations',
  `alter role ${APP_ROLE} superuser`,
  `set role ${OWNER_ROLE}`,
  'create role hacker',
];

/** Every forbidden statement fails with a privilege error and changes nothing. */
async function expectRefused(pool: pg.Pool): Promise<void> {
  const liveTrailTriggers = async () =>
    (
      await pool.query(
        `select count(*)::int as n from pg_trigger
          where tgrelid = 'staff_actions'::regclass and not tgisinternal and tgenabled = 'O'`,
      )
    ).rows[0].n as number;
  const before = await liveTrailTriggers();
  // The append-only trigger at the least (migration 0019), more as later migrations add them.
  expect(before).toBeGreaterThanOrEqual(2);
  const refusals: string[] = [];
  for (const statement of FORBIDDEN) {
    const outcome = await pool.query(statement).then(
      () => 'done',
      (err: { code?: string }) => err.code,
    );
    // 42501 insufficient_privilege (also "must be owner of table"), never done.
    refusals.push(`${statement}: ${outcome}`);
  }
  expect(refusals).toEqual(FORBIDDEN.map((statement) => `${statement}: 42501`));
  expect(await liveTrailTriggers()).toBe(before);
}

describe('the app role of the test databases (the integration suite runs as it)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it('is exchange_app: no superuser, cannot create databases or roles, owns nothing', async () => {
    const role = await db.pool.query(
      `select current_user as name, rolsuper, rolcreatedb, rolcreaterole, rolreplication, rolbypassrls
         from pg_roles where rolname = current_user`,
    );
    expect(role.rows[0]).toEqual({
      name: APP_ROLE,
      rolsuper: false,
      rolcreatedb: false,
      rolcreaterole: false,
      rolreplication: false,
      rolbypassrls: false,
    });
    const owned = await db.pool.query(
      `select count(*)::int as n from pg_class where relowner = (select oid from pg_roles where rolname = $1)`,
      [APP_ROLE],
    );
    expect(owned.rows[0].n).toBe(0);
  });

  it('refuses to drop the trigger, alter or drop tables, or change the trail, the ledger and the trades', async () => {
    await expectRefused(db.pool);
  });

  it('still reads and appends to the append-only tables, and writes the others', async () => {
    const user = await db.pool.query(
      `insert into users (uid, email, password_digest, level, state) values ('ID0000000R01', 'roles@example.com', 'x', 1, 'active')
       returning id`,
    );
    const id = user.rows[0].id;
    await db.pool.query(
      `insert into staff_actions (staff_id, role, action, target) values ($1, 'superadmin', 'test.append', null)`,
      [id],
    );
    await db.pool.query(
      `insert into activities (user_id, action, result, topic, ip) values ($1, 'login', 'succeed', 'session', '127.0.0.1')`,
      [id],
    );
    await db.pool.query(`update users set level = 2 where id = $1`, [id]);
    const read = await db.pool.query(`select count(*)::int as n from staff_actions where staff_id = $1`, [
      id,
    ]);
    expect(read.rows[0].n).toBe(1);
  });

  it('gets the rights of tables a later migration creates, by default privileges', async () => {
    await db.ownerPool.query('create table later_migration (id bigserial primary key, note text)');
    await db.pool.query(`insert into later_migration (note) values ('granted')`);
    expect((await db.pool.query('select note from later_migration')).rows).toEqual([{ note: 'granted' }]);
    await db.pool.query('delete from later_migration');
    await expect(db.pool.query('drop table later_migration')).rejects.toMatchObject({ code: '42501' });
    await db.ownerPool.query('drop table later_migration');
  });
});

describe('the embedded server with its owner and app roles', () => {
  let dir: string;
  const log = { info: (_: string) => {}, warn: (_: string) => {} };
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'exchange-roles-'));
    await chmod(dir, 0o755);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('upgrades a data folder of an earlier version (tables of the superuser) and connects the app as exchange_app', async () => {
    const dataDir = path.join(dir, 'data');
    const port = await freePort();
    // An earlier version: the superuser migrated and seeded, and the app ran as the superuser.
    const old = await startEmbeddedPostgres(dataDir, port, log);
    const superPool = createPool(old.url, 2);
    await migrate(superPool);
    await seedReferenceData(superPool);
    await seedDemoUsers(superPool, 'Demo-pass-2026!');
    const owners = await superPool.query(
      `select distinct pg_get_userbyid(relowner) as owner from pg_class where relnamespace = 'public'::regnamespace`,
    );
    expect(owners.rows).toEqual([{ owner: 'postgres' }]);
    await superPool.end();
    await old.stop();

    const said: string[] = [];
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(port) });
    const database = await openDatabase(config, { info: (m) => said.push(m), warn: (m) => said.push(m) });
    try {
      expect(new URL(database.url).username).toBe(APP_ROLE);
      expect(said.some((m) => m.includes(`now owned by ${OWNER_ROLE}`))).toBe(true);
      for (const file of ['.pg-owner-password', '.pg-app-password'])
        expect((await stat(path.join(dataDir, file))).mode & 0o777).toBe(0o600);
      const after = await database.pool.query(
        `select distinct pg_get_userbyid(relowner) as owner from pg_class where relnamespace = 'public'::regnamespace`,
      );
      expect(after.rows).toEqual([{ owner: OWNER_ROLE }]);
      await expectRefused(database.pool);
      // The data is all there and the app's role works with it.
      expect((await database.pool.query('select count(*)::int as n from users')).rows[0].n).toBe(2);
      expect(await auditLedger(database.pool)).toEqual([]);
    } finally {
      await database.close();
    }

    // The next start finds nothing to hand over.
    said.length = 0;
    const again = await openDatabase(config, { info: (m) => said.push(m), warn: (m) => said.push(m) });
    await again.close();
    expect(said.filter((m) => m.includes('now owned by'))).toEqual([]);
  });
});
