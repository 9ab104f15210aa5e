import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { inject } from 'vitest';
import { OWNER_ROLE } from '../../src/db/embedded-roles.ts';
import { createPool } from '../../src/db/pool.ts';

/** A fresh database cloned from the migrated template, private to one test file. */
export interface TestDatabase {
  /** As the app's restricted role (`exchange_app`), as the app runs. */
  url: string;
  pool: pg.Pool;
  /** As the owner of the schema: for a test that changes the schema itself (a constraint, a trigger). */
  ownerUrl: string;
  ownerPool: pg.Pool;
  drop(): Promise<void>;
}

/**
 * Creates a database from the template; cheap (a file copy), so each test file gets its own. With `empty`, a
 * database never migrated instead (owned by the owner's role; the app's role has no grant in it yet). With
 * `withoutTemplateKeys`, without the secret and body key the template was given (support/global-setup.ts): for an
 * app with a SECRET_KEY of its own, which could not open a body key sealed with the template's secret.
 */
export async function createTestDatabase(
  options: { empty?: boolean; withoutTemplateKeys?: boolean } = {},
): Promise<TestDatabase> {
  const adminUrl = inject('pgAdminUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = createPool(adminUrl, 1);
  // A copy of the template's files (FILE_COPY), not PostgreSQL 15's default of writing every page of it through
  // the WAL: 15 creates and drops here took 1.0-2.4 s and 0.6-1.2 s that way, 0.7 s and 0.3 s as a copy.
  const template = options.empty ? '' : ` template ${inject('pgTemplate')} strategy file_copy`;
  await admin.query(`create database ${name}${template} owner ${OWNER_ROLE}`);
  const url = inject('pgAppUrl').replace(/\/postgres$/, `/${name}`);
  const ownerUrl = inject('pgOwnerUrl').replace(/\/postgres$/, `/${name}`);
  const pool = createPool(url, 5);
  const ownerPool = createPool(ownerUrl, 2);
  if (options.withoutTemplateKeys && !options.empty)
    await ownerPool.query(`delete from app_secrets where name in ('secret_key', 'body_rsa_key')`);
  return {
    url,
    pool,
    ownerUrl,
    ownerPool,
    async drop() {
      await pool.end();
      await ownerPool.end();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/**
 * Waits until the tables hold every batch in the core's journal (`projected_seq` = `batch_seq`): for a test that
 * reads the tables straight after answers that came once their commands were in the journal.
 */
export async function tablesCaughtUp(pool: pg.Pool, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = (
      await pool.query(
        'select e.batch_seq, p.projected_seq from engine_state e, core_projection p where e.id = 1 and p.id = 1',
      )
    ).rows[0];
    if (row.batch_seq === row.projected_seq) return;
    if (Date.now() > deadline)
      throw new Error(`the tables are at batch ${row.projected_seq}, the journal at ${row.batch_seq}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
