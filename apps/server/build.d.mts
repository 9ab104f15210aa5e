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

/** The absolute path of a built file (`builtFile('main.js')`: what `npm start` runs); see build.mjs. */
export function builtFile(name: string, outdir?: string): string;
