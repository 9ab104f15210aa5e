// Builds the server into plain JavaScript (apps/server/dist) for `npm start`: one bundle of our own TypeScript
// (the workspace packages included), with every npm dependency left to Node's own resolution. A start then loads
// no TypeScript loader and resolves a few hundred files less (issue 27: ready in under 3 s).
//
// Entry points: the app (main), the signer's process, the projector's worker thread (src/paths.ts names them) and
// the operator's command line (cli, `npm run cli`). The SQL migrations stay in the source tree and are read from
// there.
//
// `node apps/server/build.mjs --if-stale` builds only when a source file of the last build changed (what
// `npm run cli` and the test suite's setups run): the build records which files it was made of.
import { readFile, stat, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const SERVER = fileURLToPath(new URL('./', import.meta.url));
const OWN_SOURCE = `${SERVER}src/`;
const RESOLVING = Symbol('resolving');
const builtins = new Set(builtinModules);

/**
 * npm dependencies stay imports. Our own files name them as they are (the bundle sits beside `src`, so Node finds
 * the same copy); a workspace package's dependency is named by its resolved path, because its copy may be one
 * nested in that package's own node_modules, which the bundle's folder does not see.
 */
const dependenciesOutside = {
  name: 'dependencies-outside',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === RESOLVING) return undefined;
      if (args.path.startsWith('@exchange/')) return undefined;
      if (args.path.startsWith('node:') || builtins.has(args.path.split('/')[0])) return { external: true };
      if (args.importer.startsWith(OWN_SOURCE)) return { path: args.path, external: true };
      const resolved = await b.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: RESOLVING,
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      return { path: resolved.path, external: true };
    });
  },
};

/**
 * esbuild's account of a build, written beside it: which source files each output holds and how outputs import
 * each other (the test that a start with the real providers loads no simulator reads it), the inputs it was made
 * of, and when it began (`builtAt`, ms since the epoch), so that a later look can tell whether it is still current.
 */
const ACCOUNT = 'build-account.json';

/**
 * Builds the server into `outdir` (relative to apps/server, `dist` for `npm start`) and writes its account
 * (`build-account.json`, see {@link readBuildAccount}). `entryPoints` adds entries of its own (the benchmarks load
 * the app from such a build, as `npm start` runs it).
 * @param {{ outdir?: string; entryPoints?: Record<string, string> }} [options]
 */
export async function buildServer({ outdir = 'dist', entryPoints = {} } = {}) {
  const builtAt = Date.now();
  const result = await build({
    absWorkingDir: SERVER,
    entryPoints: {
      main: 'src/main.ts',
      'signer-main': 'src/signer-main.ts',
      'projector-worker': 'src/core/projector-worker.ts',
      cli: 'src/cli.ts',
      ...entryPoints,
    },
    outdir,
    bundle: true,
    // Dynamic imports (the providers' simulators, the chain simulators) become chunks of their own, loaded only
    // when the import runs.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    chunkNames: 'chunk-[hash]',
    logLevel: 'warning',
    metafile: true,
    plugins: [dependenciesOutside],
  });
  await writeFile(`${buildFolder(outdir)}${ACCOUNT}`, JSON.stringify({ builtAt, ...result.metafile }));
  return result;
}

/**
 * The account of the build in `outdir` (esbuild's metafile and `builtAt`), or undefined when there is none.
 * @param {string} [outdir]
 * @returns {Promise<(import('esbuild').Metafile & { builtAt: number }) | undefined>}
 */
export async function readBuildAccount(outdir = 'dist') {
  const text = await readFile(`${buildFolder(outdir)}${ACCOUNT}`, 'utf8').catch(() => undefined);
  return text === undefined ? undefined : JSON.parse(text);
}

/**
 * True when the build in `outdir` exists and none of our files it was made of (nor this build script) changed or
 * went since it began. npm dependencies are not in the bundle (Node resolves them at run time), so an install
 * needs no new build.
 * @param {string} [outdir]
 */
export async function buildIsCurrent(outdir = 'dist') {
  const account = await readBuildAccount(outdir);
  if (!account) return false;
  const own = Object.keys(account.inputs).filter((input) => !input.includes('node_modules/'));
  const files = [...own.map((input) => `${SERVER}${input}`), fileURLToPath(import.meta.url)];
  const times = await Promise.all(
    files.map((file) =>
      stat(file).then(
        (s) => s.mtimeMs,
        () => Infinity,
      ),
    ),
  );
  return times.every((time) => time < account.builtAt);
}

/**
 * Builds the server into `dist` unless the build there is current ({@link buildIsCurrent}); true when it built.
 * The test suite's setups run this before they start server processes or the command line from the build.
 */
export async function buildServerIfStale() {
  if (await buildIsCurrent()) return false;
  await buildServer();
  return true;
}

/**
 * The absolute path of a build's folder, with a trailing slash (`${buildFolder()}main.js` is what `npm start`
 * runs); `outdir` as given to `buildServer`. For the scripts that start or load a build, so that no path into this
 * package is written twice.
 * @param {string} [outdir]
 */
export function buildFolder(outdir = 'dist') {
  return `${SERVER}${outdir}/`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  if (process.argv.includes('--if-stale')) {
    // Before the command line's own output (`npm run cli`): a word on stderr only when it built.
    if (await buildServerIfStale())
      console.error(`server built into apps/server/dist in ${Math.round(performance.now() - started)} ms`);
  } else {
    await buildServer();
    console.log(`server built into apps/server/dist in ${Math.round(performance.now() - started)} ms`);
  }
}
