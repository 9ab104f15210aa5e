/**
 * What the benchmarks load of the server. bench-app.ts builds this file with the server's own build (build.mjs),
 * so the code measured is the code `npm start` runs.
 */
export { composeApp } from '../../apps/server/src/compose.ts';
export { loadConfig } from '../../apps/server/src/config.ts';
export { startCore } from '../../apps/server/src/core/index.ts';
