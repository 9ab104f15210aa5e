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

/** Creates a database from the template; cheap (a file copy), so each test file gets its own. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('pgAdminUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = createPool(adminUrl, 1);
  await admin.query(`create database ${name} template ${inject('pgTemplate')} owner ${OWNER_ROLE}`);
  const url = inject('pgAppUrl').replace(/\/postgres$/, `/${name}`);
  const ownerUrl = inject('pgOwnerUrl').replace(/\/postgres$/, `/${name}`);
  const pool = createPool(url, 5);
  const ownerPool = createPool(ownerUrl, 2);
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
