import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * `scripts/check-docs.mjs` keeps the documents and the code true to each other: every cited
 * `docs/<file>.md#<anchor>` exists, no citation of the old unpublished documents is left, and every path
 * ARCHITECTURE.md names exists. Run here on the repository (it must pass) and on small broken fixtures (it must fail,
 * naming the problem).
 */
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SCRIPT = join(ROOT, 'scripts/check-docs.mjs');

function check(root: string): { status: number | null; out: string } {
  const run = spawnSync(process.execPath, [SCRIPT, '--root', root], { encoding: 'utf8' });
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

const fixtures: string[] = [];

/** Written apart, so that the broken citations of the fixtures are not citations in this file. */
const DOCS = 'docs';

/** A tiny repository: one docs file with an anchor, one source file, an ARCHITECTURE.md naming a real path. */
function fixture(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'check-docs-'));
  fixtures.push(root);
  const all: Record<string, string> = {
    'docs/trading.md': '# Trading\n\n<a id="validation"></a>\n## Order validation\n',
    'apps/server/src/orders.ts':
      '/** Refuses too many decimals (docs/trading.md#validation). */\nexport {};\n',
    'ARCHITECTURE.md': 'Orders are checked in `apps/server/src/orders.ts`.\n',
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

afterEach(() => {
  for (const root of fixtures.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('the documents check (scripts/check-docs.mjs)', () => {
  it('passes on this repository', () => {
    const { status, out } = check(ROOT);
    expect(out).toContain('every cited anchor');
    expect(status).toBe(0);
  });

  it('passes on a fixture whose citations and paths all exist', () => {
    expect(check(fixture({})).status).toBe(0);
  });

  it('fails on a cited anchor that does not exist, naming file, line and anchor', () => {
    const root = fixture({
      'apps/web/src/form.ts': `// first line\n/** The minimum (${DOCS}/trading.md#validation, #limits). */\nexport {};\n`,
    });
    const { status, out } = check(root);
    expect(status).toBe(1);
    expect(out).toContain('apps/web/src/form.ts:2: docs/trading.md has no anchor #limits');
  });

  it('fails on a cited docs file that does not exist', () => {
    const { status, out } = check(fixture({ 'e2e/specs/a.test.ts': `// ${DOCS}/wallet.md#states\n` }));
    expect(status).toBe(1);
    expect(out).toContain('e2e/specs/a.test.ts:1: docs/wallet.md does not exist');
  });

  it('fails on a citation of the unpublished spec or design handbook', () => {
    const section = '\u00a7';
    const root = fixture({
      'packages/shared/src/a.ts': `/** Minimum top up (trading spec ${section}5). */\n`,
      'scripts/b.mjs': `// one process (DESIGN.md ${section}2)\n`,
    });
    const { status, out } = check(root);
    expect(status).toBe(1);
    expect(out).toContain('packages/shared/src/a.ts:1: cites a document that is not in the repository');
    expect(out).toContain('scripts/b.mjs:1: cites a document that is not in the repository');
  });

  it('fails when ARCHITECTURE.md names a path that does not exist', () => {
    const root = fixture({
      'ARCHITECTURE.md': 'See `apps/server/src/orders.ts` and `apps/server/src/gone.ts`.\n',
    });
    const { status, out } = check(root);
    expect(status).toBe(1);
    expect(out).toContain('ARCHITECTURE.md:1: names apps/server/src/gone.ts, which does not exist');
  });

  it('fails on a markdown link to a missing anchor', () => {
    const root = fixture({ 'docs/wallet.md': '# Wallet\n\nSee [orders](trading.md#order-types).\n' });
    const { status, out } = check(root);
    expect(status).toBe(1);
    expect(out).toContain('docs/wallet.md:3: link to trading.md#order-types: no such anchor');
  });
});
