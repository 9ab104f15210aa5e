import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readGitSha, versionInfo } from '../../src/modules/public/version.ts';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A folder with `files` (paths relative to it) written. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'version-'));
  dirs.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('readGitSha (no git process)', () => {
  it('reads a detached HEAD, a loose ref and a packed ref', () => {
    expect(readGitSha(tree({ '.git/HEAD': `${A}\n` }))).toBe(A);
    expect(
      readGitSha(tree({ '.git/HEAD': 'ref: refs/heads/main\n', '.git/refs/heads/main': `${B}\n` })),
    ).toBe(B);
    const packed = `# pack-refs with: peeled\n${A} refs/heads/other\n${B} refs/heads/main\n`;
    expect(readGitSha(tree({ '.git/HEAD': 'ref: refs/heads/main\n', '.git/packed-refs': packed }))).toBe(B);
  });

  it("follows a linked worktree's .git file and commondir", () => {
    const root = tree({
      'main/.git/refs/heads/feature': `${A}\n`,
      'main/.git/worktrees/wt/HEAD': 'ref: refs/heads/feature\n',
      'main/.git/worktrees/wt/commondir': '../..\n',
    });
    writeFileSync(join(root, 'main', 'package.json'), '{}');
    mkdirSync(join(root, 'wt'));
    writeFileSync(join(root, 'wt', '.git'), `gitdir: ${join(root, 'main/.git/worktrees/wt')}\n`);
    expect(readGitSha(join(root, 'wt'))).toBe(A);
  });

  it('is null without a repository or a resolvable ref; the version then says unknown', () => {
    expect(readGitSha(tree({}))).toBeNull();
    expect(readGitSha(tree({ '.git/HEAD': 'ref: refs/heads/gone\n' }))).toBeNull();
    const info = versionInfo(tree({ 'package.json': '{"version":"1.2.3"}' }));
    expect(info).toMatchObject({ version: '1.2.3', git_tag: '1.2.3', git_sha: 'unknown' });
    expect(versionInfo(tree({ 'package.json': '{"version":"1.2.3"}', '.git/HEAD': A })).git_sha).toBe(
      'aaaaaaa',
    );
  });
});
