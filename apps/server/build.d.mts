import type { BuildResult, Metafile } from 'esbuild';

/**
 * Builds the server into `outdir` (relative to apps/server, `dist` by default), with any `entryPoints` of the
 * caller's beside the server's own, and writes the build's account beside it; see build.mjs.
 */
export function buildServer(options?: {
  outdir?: string;
  entryPoints?: Record<string, string>;
}): Promise<BuildResult<{ metafile: true }>>;

/** esbuild's account of the build in `outdir` and when it began, or undefined when there is none; see build.mjs. */
export function readBuildAccount(outdir?: string): Promise<(Metafile & { builtAt: number }) | undefined>;

/** True when the build in `outdir` exists and none of its source files changed since; see build.mjs. */
export function buildIsCurrent(outdir?: string): Promise<boolean>;

/** Builds the server into `dist` unless that build is current; true when it built. See build.mjs. */
export function buildServerIfStale(): Promise<boolean>;

/** The absolute path of a build's folder, with a trailing slash (`${buildFolder()}main.js`: what `npm start` runs); see build.mjs. */
export function buildFolder(outdir?: string): string;
