/**
 * What the benchmarks load of the server. bench-app.ts builds this file with the server's own build (build.mjs),
 * so the code measured is the code `npm start` runs.
 */
export { composeApp, loadConfig, newestSnapshot, readPosition, startCore } from '@exchange/server/bench';
