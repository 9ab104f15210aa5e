import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BITCOIN_SIMULATOR_MIGRATIONS, TRON_SIMULATOR_MIGRATIONS } from '@exchange/chain-sim';
import { SIMULATOR_MIGRATIONS } from '@exchange/provider-sims/schema';
import type { TestProject } from 'vitest/node';
import { buildServerIfStale } from '../../build.mjs';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { APP_ROLE, prepareEmbeddedRoles } from '../../src/db/embedded-roles.ts';
import { migrate, migrateSet } from '../../src/db/migrate.ts';
import { createPool } from '../../src/db/pool.ts';
import { seedReferenceData } from '../../src/db/seed.ts';
import { loadBodyKey } from '../../src/http/body-encryption.ts';
import { loadServerKeys } from '../../src/modules/identity/crypto.ts';
import { freePort } from './ports.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the test server's maintenance database as the superuser, for creating per-file databases. */
    pgAdminUrl: string;
    /** The same server as the owner of the schema (`exchange_owner`); the database name is replaced per file. */
    pgOwnerUrl: string;
    /** The same server as the app's restricted role (`exchange_app`), which the tests' app pools use. */
    pgAppUrl: string;
    /** Name of the migrated and seeded template database. */
    pgTemplate: string;
  }
}

const TEMPLATE = 'exchange_template';

/**
 * The run's server is thrown away after it and no test kills it (the crash and kill tests start servers of their
 * own): a commit need not wait for the disk. With `fsync` off, PostgreSQL still writes every commit to the kernel
 * before it answers, so what one connection committed the next one reads, as with the defaults; only a machine
 * crash could lose it. The tests that check durability run on the product's own settings, in their own servers.
 */
const THROWAWAY_SETTINGS = ['fsync=off', 'full_page_writes=off'];

/** The run's database server and template, as each project's setup provides them. */
interface Prepared {
  adminUrl: string;
  ownerUrl: string;
  appUrl: string;
  stop(): Promise<void>;
}

/** What the integration projects' setups share: the one preparation, and how many projects still use it. */
interface Shared {
  ready: Promise<Prepared>;
  users: number;
}

/**
 * Where the shared preparation is kept. Vitest runs every project's global setup in its main process, one after
 * another, but loads this file afresh for each project, so a module variable would not be shared: the process's
 * global object is.
 */
const SHARED = Symbol.for('exchange.integration-postgres');

/**
 * One embedded PostgreSQL and one migrated template for all four integration projects (each used to start and
 * migrate its own, one after another, before any test ran). The last project's teardown stops it.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const holder = globalThis as { [SHARED]?: Shared };
  holder[SHARED] ??= { ready: prepare(), users: 0 };
  const shared = holder[SHARED];
  shared.users++;
  const prepared = await shared.ready;
  project.provide('pgAdminUrl', prepared.adminUrl);
  project.provide('pgOwnerUrl', prepared.ownerUrl);
  project.provide('pgAppUrl', prepared.appUrl);
  project.provide('pgTemplate', TEMPLATE);
  return async () => {
    shared.users--;
    if (shared.users > 0) return;
    delete holder[SHARED];
    await prepared.stop();
  };
}

/**
 * Starts one embedded PostgreSQL for the whole integration run and prepares a migrated template database, with
 * the roles the app runs with: migrated by the owner, seeded by the app's restricted role.
 */
async function prepare(): Promise<Prepared> {
  // The server processes and command lines that tests start run from the build, as in production
  // (support/process.ts): built first if a source file changed.
  await buildServerIfStale();
  const dir = await mkdtemp(path.join(tmpdir(), 'exchange-it-'));
  // PostgreSQL runs as its own user when we are root; it must be able to enter the folder.
  await chmod(dir, 0o755);
  const log = { info: () => {}, warn: (m: string) => console.warn(m) };
  const server = await startEmbeddedPostgres(dir, await freePort(), log, { settings: THROWAWAY_SETTINGS });
  const adminUrl = server.url.replace(/\/exchange$/, '/postgres');
  const admin = createPool(adminUrl, 1);
  await admin.query(`create database ${TEMPLATE}`);
  await admin.end();
  const roles = await prepareEmbeddedRoles(server.url.replace(/\/exchange$/, `/${TEMPLATE}`), dir, log);
  const owner = createPool(roles.ownerUrl, 1);
  await migrate(owner, { appRole: APP_ROLE });
  // The simulators' own tables (providers and chains): the tests use them as the default one-process start does.
  for (const set of [SIMULATOR_MIGRATIONS, BITCOIN_SIMULATOR_MIGRATIONS, TRON_SIMULATOR_MIGRATIONS])
    await migrateSet(owner, set, { appRole: APP_ROLE });
  await owner.end();
  const app = createPool(roles.appUrl, 1);
  await seedReferenceData(app);
  // What an app's first start generates and keeps (the server's secret, the body-encryption key pair), made once
  // here: every file's database starts with them instead of generating its own (the RSA key pair alone cost about
  // half a second of CPU per app start). An app given a SECRET_KEY gets them removed (support/app.ts).
  await loadBodyKey(app, await loadServerKeys(app, undefined));
  await app.end();
  return {
    adminUrl,
    ownerUrl: roles.ownerUrl.replace(new RegExp(`/${TEMPLATE}$`), '/postgres'),
    appUrl: roles.appUrl.replace(new RegExp(`/${TEMPLATE}$`), '/postgres'),
    async stop() {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
