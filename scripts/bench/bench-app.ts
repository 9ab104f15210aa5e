import { rm } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import type { AppDeps, Config } from '@exchange/server/bench';
import { buildFolder, buildServer } from '@exchange/server/build';
import type pg from 'pg';

/** The server's parts the benchmarks use (server-entry.ts). */
type ServerParts = typeof import('./server-entry.ts');

/** Where the benchmarks' build of the server goes (beside `dist`, so that paths.ts finds the server's files). */
const BENCH_BUILD = pathToFileURL(buildFolder('dist-bench'));

let parts: Promise<ServerParts> | undefined;

/**
 * The server's code as `npm start` runs it: built by build.mjs (esbuild, plain JavaScript), not loaded through tsx,
 * whose transform wraps every function it creates in a naming call and turns on source maps for every stack.
 * The figures are then the product's. `BENCH_SERVER=source` loads the TypeScript through tsx instead (to compare);
 * `BENCH_SERVER=built:<folder>` loads a build kept in apps/server/<folder> (a copy of dist-bench) without building.
 */
export function benchServer(): Promise<ServerParts> {
  parts ??= (async () => {
    if (process.env.BENCH_SERVER === 'source') return import('./server-entry.ts');
    // A build kept from before (a folder beside dist-bench), to compare two versions of the code in alternate runs.
    if (process.env.BENCH_SERVER?.startsWith('built:')) {
      const folder = pathToFileURL(buildFolder(process.env.BENCH_SERVER.slice('built:'.length)));
      return (await import(new URL('bench-server.js', folder).href)) as ServerParts;
    }
    await rm(BENCH_BUILD, { recursive: true, force: true });
    await buildServer({
      outdir: 'dist-bench',
      entryPoints: { 'bench-server': '../../scripts/bench/server-entry.ts' },
    });
    return (await import(new URL('bench-server.js', BENCH_BUILD).href)) as ServerParts;
  })();
  return parts;
}

/**
 * The configuration every bench section starts the app with: test mode, silent, no rate limits (every request
 * reaches what is measured) and no captcha, plus `env`.
 */
export async function benchConfig(env: Record<string, string> = {}): Promise<Config> {
  const { loadConfig } = await benchServer();
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    RATE_LIMITS: 'false',
    CAPTCHA_TYPE: 'none',
    WEB_DIST: '/nonexistent',
    // No chains moving underneath: the figures are the request path's, not the wallet's background work.
    WALLET_POLL_MS: '0',
    SIM_BLOCK_MS: '0',
    EVM_DEVNET: 'false',
    ...env,
  });
}

/** The whole app over `pool`, listening on a loopback port; `base` is its URL. */
export async function startBenchApp(
  pool: pg.Pool,
  options: { env?: Record<string, string>; overrides?: Partial<AppDeps> } = {},
) {
  const { composeApp } = await benchServer();
  const { app, deps } = await composeApp(await benchConfig(options.env), pool, options.overrides);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, deps, base };
}
