import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { migrate } from '../../src/db/migrate.ts';
import { createPool } from '../../src/db/pool.ts';
import { seedReferenceData } from '../../src/db/seed.ts';
import { freePort } from './ports.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the test server's maintenance database, for creating per-file databases. */
    pgAdminUrl: string;
    /** Name of the migrated and seeded template database. */
    pgTemplate: string;
  }
}

const TEMPLATE = 'exchange_template';

/** Starts one embedded PostgreSQL for the whole integration run and prepares a migrated template database. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'exchange-it-'));
  // PostgreSQL runs as its own user when we are root; it must be able to enter the folder.
  await chmod(dir, 0o755);
  const log = { info: () => {}, warn: (m: string) => console.warn(m) };
  const server = await startEmbeddedPostgres(dir, await freePort(), log);
  const adminUrl = server.url.replace(/\/exchange$/, '/postgres');
  const admin = createPool(adminUrl, 1);
  await admin.query(`create database ${TEMPLATE}`);
  await admin.end();
  const template = createPool(server.url.replace(/\/exchange$/, `/${TEMPLATE}`), 1);
  await migrate(template);
  await seedReferenceData(template);
  await template.end();
  project.provide('pgAdminUrl', adminUrl);
  project.provide('pgTemplate', TEMPLATE);
  return async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
