import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { BITCOIN_SIMULATOR_MIGRATIONS, TRON_SIMULATOR_MIGRATIONS } from '@exchange/chain-sim';
import { SIMULATOR_MIGRATIONS } from '@exchange/provider-sims/schema';
import type pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { APP_ROLE } from '../../src/db/embedded-roles.ts';
import { migrate, migrateSet } from '../../src/db/migrate.ts';
import { createPool } from '../../src/db/pool.ts';

/**
 * The simulators' tables are theirs (issue 34): made by packages/provider-sims/migrations (recorded in
 * `sim_schema_migrations`) and packages/chain-sim/migrations (`btcsim_` and `tronsim_schema_migrations`), never by
 * the exchange's migrations. A database of an earlier version, whose exchange
 * migrations made them, adopts them with their rows; at any earlier version it ends with the same shapes as a new
 * one. The earlier versions' simulator statements are kept as they were in test/fixtures/simulator-ddl-before-34,
 * one file per exchange migration that carried them.
 */
const FIXTURES = new URL('../fixtures/simulator-ddl-before-34/', import.meta.url);
const SIMULATOR_TABLE = /^(kyc_sim_|cardsim_|banksim_|travel_rule_sim_|smssim_|btcsim_|tronsim_)/;
const FIRST = '0001_provider_simulators.sql';
/** The mail simulator's table, which no exchange migration ever made. */
const MAIL = '0002_mail_simulator.sql';
const SETS = [SIMULATOR_MIGRATIONS, BITCOIN_SIMULATOR_MIGRATIONS, TRON_SIMULATOR_MIGRATIONS];
const ALL_FIRST = [FIRST, MAIL, '0001_bitcoin_simulator.sql', '0001_tron_simulator.sql'];

/** Applies every simulator's set, as a start with all simulators does; the names applied. */
async function migrateSimulators(pool: pg.Pool, appRole?: string): Promise<string[]> {
  const applied: string[] = [];
  for (const set of SETS) applied.push(...(await migrateSet(pool, set, appRole ? { appRole } : {})));
  return applied;
}

const admin = createPool(inject('pgAdminUrl'), 1);
const made: { name: string; pools: pg.Pool[] }[] = [];
afterAll(async () => {
  for (const { name, pools } of made) {
    for (const pool of pools) await pool.end();
    await admin.query(`drop database if exists ${name} with (force)`);
  }
  await admin.end();
});

/** A new, empty database: its superuser's pool and its app role's (exchange_app, after the grants). */
async function database(): Promise<{ pool: pg.Pool; app: pg.Pool }> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  await admin.query(`create database ${name}`);
  const pool = createPool(inject('pgAdminUrl').replace(/\/postgres$/, `/${name}`), 3);
  const app = createPool(inject('pgAppUrl').replace(/\/postgres$/, `/${name}`), 1);
  made.push({ name, pools: [pool, app] });
  return { pool, app };
}

/**
 * An earlier version's database: the exchange's migrations (all, or those before `before`), each followed by the
 * simulator statements it carried then.
 */
async function earlierVersion(pool: pg.Pool, before?: string): Promise<void> {
  for (const file of (await readdir(FIXTURES)).sort()) {
    if (before !== undefined && file >= before) break;
    await migrate(pool, { before: `${file}~` });
    await pool.query(await readFile(new URL(file, FIXTURES), 'utf8'));
  }
  await migrate(pool, before === undefined ? {} : { before });
}

interface Shapes {
  tables: string[];
  columns: string[];
  constraints: string[];
  indexes: string[];
  triggers: string[];
}

/** The simulators' tables (not their migrations' record) as the catalogue describes them: columns in order, constraints, indexes, triggers. */
async function shapes(pool: pg.Pool): Promise<Shapes> {
  const tables = (
    await pool.query<{ name: string }>(
      `select relname as name from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r'`,
    )
  ).rows
    .map((r) => r.name)
    .filter((name) => SIMULATOR_TABLE.test(name) && !name.endsWith('schema_migrations'));
  const describe = async (sql: string) =>
    (await pool.query<{ line: string }>(sql, [tables])).rows.map((r) => r.line).sort();
  return {
    tables: tables.sort(),
    columns: await describe(
      `select format('%s.%s %s %s %s %s', c.relname, a.attnum, a.attname, format_type(a.atttypid, a.atttypmod),
         a.attnotnull, pg_get_expr(d.adbin, d.adrelid)) as line
       from pg_attribute a join pg_class c on c.oid = a.attrelid
       left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
       where c.relname = any($1) and c.relnamespace = 'public'::regnamespace and a.attnum > 0 and not a.attisdropped`,
    ),
    constraints: await describe(
      `select format('%s %s %s', conrelid::regclass, conname, pg_get_constraintdef(oid)) as line
       from pg_constraint where conrelid::regclass::text = any($1)`,
    ),
    indexes: await describe(`select indexdef as line from pg_indexes where tablename = any($1)`),
    triggers: await describe(
      `select pg_get_triggerdef(oid) as line from pg_trigger where not tgisinternal and tgrelid::regclass::text = any($1)`,
    ),
  };
}

/** A new database as this version makes it: the exchange's migrations, then the simulators'. */
async function current(): Promise<Shapes> {
  const { pool } = await database();
  await migrate(pool);
  await migrateSimulators(pool);
  return shapes(pool);
}

describe("the provider simulators' own migrations", () => {
  it("leave the exchange's schema without a simulator table; theirs make every one, and the app's role may use them", async () => {
    const { pool, app } = await database();
    await migrate(pool, { appRole: APP_ROLE });
    expect((await shapes(pool)).tables).toEqual([]);
    // Two processes starting at once: one applies, the other finds nothing left.
    const runs = await Promise.all([
      migrateSet(pool, SIMULATOR_MIGRATIONS, { appRole: APP_ROLE }),
      migrateSet(pool, SIMULATOR_MIGRATIONS, { appRole: APP_ROLE }),
    ]);
    expect(runs.flat()).toEqual([FIRST, MAIL]);
    expect(await migrateSimulators(pool, APP_ROLE)).toEqual(ALL_FIRST.slice(2));
    expect((await shapes(pool)).tables).toEqual(
      expect.arrayContaining([
        'kyc_sim_applicants',
        'cardsim_cards',
        'smssim_messages',
        'btcsim_blocks',
        'tronsim_ledger',
      ]),
    );
    // The app's role writes the simulators' rows, reads their record and never writes it.
    await app.query(
      `insert into travel_rule_sim_providers (provider_id, behaviour) values ('vasp-1', 'refuse')`,
    );
    await app.query(
      `insert into mailsim_messages (message_id, mail_from, rcpt_to, text_length, size_bytes) values ('<a@b>', '', 'x@y', 0, 0)`,
    );
    expect((await app.query('select name from sim_schema_migrations order by name')).rows).toEqual([
      { name: FIRST },
      { name: MAIL },
    ]);
    await expect(app.query(`delete from sim_schema_migrations`)).rejects.toMatchObject({ code: '42501' });
    await expect(app.query(`insert into schema_migrations (name) values ('x')`)).rejects.toMatchObject({
      code: '42501',
    });
  });

  it('a database of the last version adopts its simulator tables and rows as they are', async () => {
    const { pool } = await database();
    await earlierVersion(pool);
    await pool.query(
      `insert into kyc_sim_applicants (id, inspection_id, external_user_id, level_name, review_status)
       values ('app-1', 'insp-1', 'uid-1', 'basic-kyc-level', 'pending')`,
    );
    await pool.query(`insert into banksim_webhooks (payload) values ('{"n":1}')`);
    await pool.query(
      `insert into tronsim_ledger (chain, block_number, address, currency, delta) values ('tron-sim', 0, '41ab', 'trx', 5)`,
    );
    const before = await shapes(pool);
    expect(before.tables.length).toBeGreaterThan(15);

    expect(await migrate(pool)).toEqual([]);
    expect(await migrateSimulators(pool)).toEqual(ALL_FIRST);
    expect(await migrateSimulators(pool)).toEqual([]);
    const after = await shapes(pool);
    // The same tables, columns, constraints and indexes; the same triggers, on the simulators' own function.
    expect({ ...after, triggers: [] }).toEqual({ ...before, triggers: [] });
    expect(after.triggers).toEqual(
      before.triggers.map((t) => t.replace('notify_simulator_work(', 'sim_notify_work(')).sort(),
    );
    expect(after).toEqual(await current());
    const rows = await pool.query('select id, review_status, applicant_type from kyc_sim_applicants');
    expect(rows.rows).toEqual([{ id: 'app-1', review_status: 'pending', applicant_type: 'individual' }]);
    expect((await pool.query('select payload from banksim_webhooks')).rows).toEqual([{ payload: '{"n":1}' }]);
    expect((await pool.query('select delta from tronsim_ledger')).rows).toEqual([{ delta: '5' }]);
  });

  it('a database of an early version (before 0020) ends with the same shapes as a new one', async () => {
    const { pool } = await database();
    await earlierVersion(pool, '0020');
    await pool.query(
      `insert into kyc_sim_applicants (id, inspection_id, external_user_id, level_name)
       values ('app-2', 'insp-2', 'uid-2', 'basic-kyc-level')`,
    );
    await migrate(pool);
    expect(await migrateSimulators(pool)).toEqual(ALL_FIRST);
    expect(await shapes(pool)).toEqual(await current());
    const rows = await pool.query('select id, moderation_comment, applicant_type from kyc_sim_applicants');
    expect(rows.rows).toEqual([{ id: 'app-2', moderation_comment: null, applicant_type: 'individual' }]);
  });
});
