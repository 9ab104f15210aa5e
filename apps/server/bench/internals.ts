/**
 * The server's internals that the benchmarks (scripts/bench) measure on purpose: the core's write path (the
 * sequencer, the journal's codec, the projector, recovery), the composition of the app that `npm start` runs, and
 * the identity pieces a benchmark's traders are made with. Not an API: these are the server's own modules, named
 * here so that a benchmark reaches them through `@exchange/server/bench` (apps/server/package.json `exports`) rather
 * than by a relative path into the server (`no-relative-import-across-workspaces` in scripts/check-layers.mjs), and
 * so that what the benchmarks depend on is listed in one place. Starting a server, its database and its neighbours
 * is `@exchange/server/harness`.
 *
 * scripts/bench/server-entry.ts takes the app's parts from here into a build of the server's own, so nothing is
 * named here that the app does not load already: a module only the benchmarks need would be loaded by that build.
 */

export type { AppDeps } from '../src/app-deps.ts';
export { composeApp } from '../src/compose.ts';
export { type Config, loadConfig } from '../src/config.ts';
export { loadEngineConfig } from '../src/core/engine-config.ts';
export { type ActiveCore, startCore } from '../src/core/index.ts';
export { decodeBatch, encodeBatch } from '../src/core/journal/codec.ts';
export { newestSnapshot } from '../src/core/journal/snapshots.ts';
export { loadEngineState, readPosition, Units } from '../src/core/persistence.ts';
export { type JournalBatch, projectionStatements } from '../src/core/projection.ts';
export { Projector, writeProjection } from '../src/core/projector.ts';
export { applyAll } from '../src/core/recovery.ts';
export type { Acknowledgement, SequencerOptions, Submitted } from '../src/core/sequencer.ts';
export type { Tx } from '../src/db/pool.ts';
export { encrypt, loadServerKeys, type ServerKeys } from '../src/modules/identity/crypto.ts';
export { LOGIN_POLICY } from '../src/modules/identity/lockout.ts';
export { hashPassword } from '../src/modules/identity/passwords.ts';
export { SESSION_COOKIE } from '../src/modules/identity/sessions.ts';
export { newTotpSecret } from '../src/modules/identity/totp.ts';
