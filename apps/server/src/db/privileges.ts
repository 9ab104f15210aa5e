import type pg from 'pg';
import type { SelectOne } from './pool.ts';

/**
 * Tables the app only appends to: the staff trail, the ledger, the trades and the security log. The app's role may
 * read and insert them, never update or delete (nor truncate, alter or drop: it owns no table). A migration that
 * adds such a table adds it here.
 */
export const APPEND_ONLY_TABLES = [
  'staff_actions',
  'core_journal',
  'ledger_postings',
  'trades',
  'activities',
  'signer_log',
  'solvency_snapshots',
  'solvency_leaves',
  'solvency_nodes',
  'retention_erasures',
] as const;

/**
 * Tables the app's role may not touch at all: the per-address keys of earlier versions, kept only until they are
 * swept out (`cli custody sweep-legacy`, run with the owner's credentials). No process that faces the internet
 * reads a private key.
 */
export const OWNER_ONLY_TABLES = ['legacy_wallet_keys'] as const;

/**
 * The tables that record applied migrations: the exchange's `schema_migrations` and a set's beside it (the provider
 * simulators' `sim_schema_migrations`). The app's role may read them, never write.
 */
const MIGRATIONS_TABLE = /^([a-z][a-z0-9_]*_)?schema_migrations$/;

/** What a restricted role may do with tables and sequences: data, never the schema. */
const TABLE_RIGHTS = 'select, insert, update, delete';
const SEQUENCE_RIGHTS = 'usage, select';

/**
 * Gives the app's role exactly what the code needs, run by the owner of the schema after its migrations (in the
 * migration lock, so concurrent starts do not grant at once): reading and writing rows of every table, minus
 * update and delete on {@link APPEND_ONLY_TABLES} and any write to the migrations tables, and the sequences behind
 * serial ids. Default privileges cover the tables and sequences of later migrations as they are created; running
 * this at every start also covers a database restored without its grants (pg_restore --no-privileges) and a role
 * that changed. One transaction: the role never holds more than this, not even for a moment.
 */
export async function grantAppPrivileges(owner: pg.ClientBase, appRole: string): Promise<void> {
  const role = owner.escapeIdentifier(appRole);
  const existing = (
    await owner.query<{ name: string }>(
      `select c.relname as name from pg_class c
        where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p')
          and (c.relname = any($1) or c.relname ~ $2)`,
      [[...APPEND_ONLY_TABLES, ...OWNER_ONLY_TABLES], MIGRATIONS_TABLE.source],
    )
  ).rows.map((r) => r.name);
  const ownerOnly = existing.filter((name) => (OWNER_ONLY_TABLES as readonly string[]).includes(name));
  const migrations = existing.filter((name) => MIGRATIONS_TABLE.test(name));
  const appendOnly = existing.filter((name) => !migrations.includes(name) && !ownerOnly.includes(name));
  await owner.query('begin');
  try {
    await owner.query(`grant usage on schema public to ${role}`);
    await owner.query(`grant ${TABLE_RIGHTS} on all tables in schema public to ${role}`);
    await owner.query(`grant ${SEQUENCE_RIGHTS} on all sequences in schema public to ${role}`);
    // Anything granted before (by hand, by an older version) beyond data rights goes.
    await owner.query(`revoke truncate, references, trigger on all tables in schema public from ${role}`);
    if (appendOnly.length > 0) {
      const tables = appendOnly.map((name) => owner.escapeIdentifier(name)).join(', ');
      await owner.query(`revoke update, delete on ${tables} from ${role}`);
    }
    for (const name of ownerOnly)
      await owner.query(`revoke all on ${owner.escapeIdentifier(name)} from ${role}`);
    for (const name of migrations)
      await owner.query(`revoke insert, update, delete on ${owner.escapeIdentifier(name)} from ${role}`);
    await owner.query(`alter default privileges in schema public grant ${TABLE_RIGHTS} on tables to ${role}`);
    await owner.query(
      `alter default privileges in schema public grant ${SEQUENCE_RIGHTS} on sequences to ${role}`,
    );
    await owner.query('commit');
  } catch (err) {
    await owner.query('rollback').catch(() => {});
    throw err;
  }
}

/**
 * Creates `name` as a login role with no power beyond its grants (not a superuser, cannot create databases or
 * roles, replicate or bypass row security), or makes an existing one so, with `password`. Run by a superuser.
 */
export async function ensureLoginRole(admin: pg.ClientBase, name: string, password: string): Promise<void> {
  const role = admin.escapeIdentifier(name);
  const exists =
    (await admin.query<SelectOne>('select 1 from pg_roles where rolname = $1', [name])).rowCount === 1;
  const attributes = `login nosuperuser nocreatedb nocreaterole noreplication nobypassrls inherit password ${admin.escapeLiteral(password)}`;
  await admin.query(`${exists ? 'alter' : 'create'} role ${role} with ${attributes}`);
}

/**
 * Makes `owner` the owner of the database and of everything in its `public` schema: a database made by an earlier
 * version, whose migrations ran as the superuser, changes hands once (later starts find nothing to change).
 * Tables take their indexes, triggers and serial sequences with them. Run by a superuser, connected to that database.
 * @returns how many objects changed owner.
 */
export async function adoptDatabase(admin: pg.ClientBase, database: string, owner: string): Promise<number> {
  const role = admin.escapeIdentifier(owner);
  await admin.query(`alter database ${admin.escapeIdentifier(database)} owner to ${role}`);
  let changed = 0;
  // Tables and views first: a sequence that belongs to a table column cannot change owner on its own.
  for (const kinds of [['r', 'p', 'v', 'm', 'f'], ['S']]) {
    const objects = await admin.query<{ statement: string }>(
      `select format('alter %s %s owner to %I',
         case c.relkind when 'S' then 'sequence' when 'v' then 'view' when 'm' then 'materialized view'
           when 'f' then 'foreign table' else 'table' end, c.oid::regclass, $1::text) as statement
       from pg_class c
       where c.relnamespace = 'public'::regnamespace and c.relkind = any($2::"char"[])
         and c.relowner <> (select oid from pg_roles where rolname = $1)`,
      [owner, kinds],
    );
    for (const { statement } of objects.rows) await admin.query(statement);
    changed += objects.rowCount ?? 0;
  }
  const others = await admin.query<{ statement: string }>(
    `select format('alter %s %s owner to %I', case p.prokind when 'p' then 'procedure' else 'function' end,
       p.oid::regprocedure, $1::text) as statement
     from pg_proc p
     where p.pronamespace = 'public'::regnamespace and p.prokind in ('f', 'p')
       and p.proowner <> (select oid from pg_roles where rolname = $1)
     union all
     select format('alter %s %s owner to %I', case t.typtype when 'd' then 'domain' else 'type' end,
       t.oid::regtype, $1::text)
     from pg_type t
     where t.typnamespace = 'public'::regnamespace and t.typtype in ('e', 'd')
       and t.typowner <> (select oid from pg_roles where rolname = $1)`,
    [owner],
  );
  for (const { statement } of others.rows) await admin.query(statement);
  return changed + (others.rowCount ?? 0);
}
