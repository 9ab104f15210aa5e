import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { REPO_ROOT } from '../../paths.ts';

/** The answer of Peatio's `GET /public/version` and Barong's `GET /identity/version`. */
export interface VersionInfo {
  git_tag: string;
  git_sha: string;
  build_date: string;
  version: string;
}

/** The repository's root: the folder of the workspace `package.json`. */
const ROOT = REPO_ROOT;

/** Peatio and Barong show the short form of the commit (`66aceba`). */
const SHORT_SHA = 7;

const read = (path: string): string | null => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

/**
 * The commit checked out in `root`, read from the files under `.git` (no `git` process): a detached `HEAD`, or
 * the branch it names as a loose ref or in `packed-refs`; a linked worktree's `.git` file and `commondir` are
 * followed. Null when there is no repository or the ref cannot be found.
 */
export function readGitSha(root: string): string | null {
  let gitDir = join(root, '.git');
  if (!existsSync(gitDir)) return null;
  if (statSync(gitDir).isFile()) {
    const pointer = /^gitdir:\s*(.+)$/m.exec(read(gitDir) ?? '');
    if (!pointer?.[1]) return null;
    gitDir = resolve(root, pointer[1].trim());
  }
  const head = read(join(gitDir, 'HEAD'))?.trim() ?? '';
  if (/^[0-9a-f]{40}$/.test(head)) return head;
  const ref = /^ref:\s*(\S+)$/.exec(head)?.[1];
  if (!ref) return null;
  const common = read(join(gitDir, 'commondir'))?.trim();
  const dirs = common ? [gitDir, resolve(gitDir, common)] : [gitDir];
  for (const dir of dirs) {
    const loose = read(join(dir, ref))?.trim();
    if (loose && /^[0-9a-f]{40}$/.test(loose)) return loose;
  }
  for (const dir of dirs) {
    for (const line of (read(join(dir, 'packed-refs')) ?? '').split('\n')) {
      const [sha, name] = line.trim().split(' ');
      if (name === ref && sha && /^[0-9a-f]{40}$/.test(sha)) return sha;
    }
  }
  return null;
}

/**
 * The version of the code in `root`: `version` and `git_tag` from the workspace `package.json` (Peatio's tag is
 * its version too), `git_sha` from the checkout (`unknown` without one), `build_date` the time of the call (there
 * is no build step: the server runs its sources).
 */
export function versionInfo(root = ROOT): VersionInfo {
  const pkg = JSON.parse(read(join(root, 'package.json')) ?? '{}') as { version?: string };
  const version = pkg.version ?? '0.0.0';
  const sha = readGitSha(root);
  return {
    git_tag: version,
    git_sha: sha ? sha.slice(0, SHORT_SHA) : 'unknown',
    build_date: new Date().toISOString(),
    version,
  };
}

let cached: VersionInfo | undefined;
/** The process's {@link versionInfo}, computed once (when the routes are registered), never per request. */
export const runningVersion = (): VersionInfo => {
  cached ??= versionInfo();
  return cached;
};
