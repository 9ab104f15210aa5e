import type { BuildResult } from 'esbuild';

/**
 * Builds the server into `outdir` (relative to apps/server, `dist` by default), with any `entryPoints` of the
 * caller's beside the server's own; see build.mjs.
 */
export function buildServer(options?: {
  outdir?: string;
  metafile?: boolean;
  entryPoints?: Record<string, string>;
}): Promise<BuildResult>;

/** The absolute path of a build's folder, with a trailing slash (`${buildFolder()}main.js`: what `npm start` runs); see build.mjs. */
export function buildFolder(outdir?: string): string;
