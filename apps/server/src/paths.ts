import { fileURLToPath } from 'node:url';

/**
 * Where the server finds its own files, whether it runs from the TypeScript source through tsx (development,
 * tests) or from the built bundle (`npm start`, `apps/server/dist`, see build.mjs). Both this file
 * (`src/paths.ts`) and every bundle file (`dist/*.js`) sit one folder below `apps/server/`, so one relative URL
 * names the server's folder in both.
 */
export const SERVER_DIR = new URL('../', import.meta.url);

/** True when this code was loaded from the built bundle rather than from source. */
const BUILT = import.meta.url.endsWith('.js');

/** The repository's root (the workspace `package.json`). */
export const REPO_ROOT = fileURLToPath(new URL('../../', SERVER_DIR));

/** The SQL migrations, read at start from the source tree in both cases (they are not bundled). */
export const MIGRATIONS_DIR = new URL('src/db/migrations/', SERVER_DIR);

/** The web app's build (`npm run build:web`). */
export const WEB_DIST = fileURLToPath(new URL('../web/dist', SERVER_DIR));

/**
 * A separate entry point of the server (a child process or a worker thread): when built, the file of that name in
 * the bundle's own folder (`dist/` for `npm start`, another for a build of the benchmarks), else the TypeScript
 * source (run through tsx).
 */
export function entryPoint(name: 'signer-main' | 'projector-worker'): URL {
  if (BUILT) return new URL(`./${name}.js`, import.meta.url);
  return new URL(name === 'signer-main' ? 'src/signer-main.ts' : 'src/core/projector-worker.ts', SERVER_DIR);
}

/**
 * The projector thread's module by default: the server's own, its build's `projector-worker.js` when it runs built,
 * else the TypeScript source (through tsx).
 */
export const PROJECTOR_MODULE = entryPoint('projector-worker');
