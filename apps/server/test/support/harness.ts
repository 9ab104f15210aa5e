/**
 * What e2e and the benchmarks use to start and inspect a server from outside it, and nothing more: a scratch
 * PostgreSQL with the schema and reference data and a pool on it, the server as a child process, the core's NATS
 * client to drive a core in another process, its neighbours (NATS, the signer, the GeoIP file), free ports, a user
 * or a staff role put straight in its database, and the ledger's audit to end a run with. Published as
 * `@exchange/server/harness` (apps/server/package.json `exports`): other workspaces import the server's test helpers
 * through this file, never by a relative path into them (`no-relative-import-across-workspaces` in
 * scripts/check-layers.mjs).
 */

export { type AuditFailure, auditLedger } from '../../src/core/audit.ts';
export { RemoteSequencer } from '../../src/core/remote/remote-sequencer.ts';
export { type EmbeddedDatabase, startEmbeddedPostgres } from '../../src/db/embedded.ts';
export { migrate, migrateSet } from '../../src/db/migrate.ts';
export { createPool } from '../../src/db/pool.ts';
export { seedReferenceData } from '../../src/db/seed.ts';
export { grantRole } from '../../src/modules/admin/staff-repository.ts';
export { plainUser, sessionFor } from './core.ts';
export { writeTestCountryDb } from './mmdb-writer.ts';
export { startNats, type TestNats } from './nats.ts';
export { freePort } from './ports.ts';
export { BUILT_CLI, type ServerProcess, serverSetup, startServerProcess } from './process.ts';
export { startTestSigner, type TestSigner } from './signer.ts';
