import type { BuildResult } from 'esbuild';

/** Builds the server into `outdir` (relative to apps/server, `dist` by default); see build.mjs. */
export function buildServer(options?: { outdir?: string; metafile?: boolean }): Promise<BuildResult>;
