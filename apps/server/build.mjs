// Builds the server into plain JavaScript (apps/server/dist) for `npm start`: one bundle of our own TypeScript
// (the workspace packages included), with every npm dependency left to Node's own resolution. A start then loads
// no TypeScript loader and resolves a few hundred files less (issue 27: ready in under 3 s).
//
// Entry points: the app (main), the signer's process and the projector's worker thread (src/paths.ts names
// them). The SQL migrations stay in the source tree and are read from there.
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
 * Builds the server into `outdir` (relative to apps/server, `dist` for `npm start`). With `metafile`, esbuild's
 * account of the build comes back: which source files each output holds and how outputs import each other (the
 * test that a start with the real providers loads no simulator reads it). `entryPoints` adds entries of its own
 * (the benchmarks load the app from such a build, as `npm start` runs it).
 * @param {{ outdir?: string; metafile?: boolean; entryPoints?: Record<string, string> }} [options]
 */
export async function buildServer({ outdir = 'dist', metafile = false, entryPoints = {} } = {}) {
  return build({
    absWorkingDir: SERVER,
    entryPoints: {
      main: 'src/main.ts',
      'signer-main': 'src/signer-main.ts',
      'projector-worker': 'src/core/projector-worker.ts',
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
    metafile,
    plugins: [dependenciesOutside],
  });
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
  await buildServer();
  console.log(`server built into apps/server/dist in ${Math.round(performance.now() - started)} ms`);
}
