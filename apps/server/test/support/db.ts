import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { inject } from 'vitest';
import { createPool } from '../../src/db/pool.ts';

/** A fresh database cloned from the migrated template, private to one test file. */
export interface TestDatabase {
  url: string;
  pool: pg.Pool;
  drop(): Promise<void>;
}

/** Creates a database from the template; cheap (a file copy), so each test file gets its own. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('pgAdminUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = createPool(adminUrl, 1);
  await admin.query(`create database ${name} template ${inject('pgTemplate')}`);
  const url = adminUrl.replace(/\/postgres$/, `/${name}`);
  const pool = createPool(url, 5);
  return {
    url,
    pool,
    async drop() {
      await pool.end();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
