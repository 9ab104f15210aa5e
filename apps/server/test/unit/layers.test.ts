import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkLayers } from '../../../../scripts/check-layers.mjs';
import { CASES, CLEAN } from './layers-fixture.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/**
 * Lays out the tree in a new folder whose node_modules links the repository's packages (so `pg` and `nats`
 * resolve) and, as npm does, each workspace of the tree by its name (so `@fixture/engine` resolves).
 */
function layOut(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'layers-'));
  const modules = path.join(dir, 'node_modules');
  mkdirSync(modules);
  for (const name of readdirSync(path.join(REPO, 'node_modules')))
    symlinkSync(path.join(REPO, 'node_modules', name), path.join(modules, name));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  const workspaces: string[] = JSON.parse(files['package.json'] ?? '{}').workspaces ?? [];
  for (const workspace of workspaces) {
    const manifest = files[`${workspace}/package.json`];
    if (manifest === undefined) continue;
    const link = path.join(modules, (JSON.parse(manifest) as { name: string }).name);
    mkdirSync(path.dirname(link), { recursive: true });
    symlinkSync(path.join(dir, workspace), link);
  }
  return dir;
}

async function violations(files: Record<string, string>) {
  const dir = layOut(files);
  try {
    return await checkLayers(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the layering check (scripts/check-layers.mjs, in npm run lint)', () => {
  it('passes a tree that keeps every rule', async () => {
    expect(await violations(CLEAN)).toEqual([]);
  });

  it.each(CASES)(
    'fails on a tree that breaks $rule',
    async ({ rule, files }) => {
      const found = await violations({ ...CLEAN, ...files });
      expect(found.map((v) => v.rule)).toContain(rule);
      // Only the files the case added or replaced are to blame.
      const blamed = Object.keys(files);
      for (const v of found.filter((f) => f.rule === rule))
        expect(blamed.some((file) => v.from === file || v.to.includes(file))).toBe(true);
    },
    30_000,
  );

  it('lets a listed module file keep its SQL until it moves to a repository', async () => {
    const found = await violations({
      ...CLEAN,
      'apps/server/src/modules/b/service.ts':
        "import type pg from 'pg';\nexport const b = (db: pg.Pool) => db.query('select 1');\n",
      'scripts/layers/sql-outside-repositories.txt': 'apps/server/src/modules/b/service.ts\n',
    });
    expect(found).toEqual([]);
  });

  it("lets the data layer and the core's write path run SQL where it is built", async () => {
    const query = "import type pg from 'pg';\nexport const q = (db: pg.Pool) => db.query('select 1');\n";
    const found = await violations({
      ...CLEAN,
      'apps/server/src/db/locks.ts': query,
      'apps/server/src/core/persistence.ts': query,
    });
    expect(found).toEqual([]);
  }, 30_000);

  it('counts a read of the clock, not a comment about one nor a date made from a value', async () => {
    const file = 'apps/server/src/modules/b/service.ts';
    const quiet = await violations({
      ...CLEAN,
      [file]:
        '/** Not Date.now(): the given moment. */\n' +
        'export const dayOf = (at: number) => new Date(at).toISOString(); // never new Date()\n',
    });
    expect(quiet).toEqual([]);
    const read = await violations({
      ...CLEAN,
      [file]: 'export const stamp = () => new Date().toISOString();\n',
    });
    expect(read).toEqual([
      { rule: 'wall-clock-outside-the-clock', from: file, to: 'Date.now() or new Date()' },
    ]);
    const listed = await violations({
      ...CLEAN,
      [file]: 'export const stamp = () => new Date().toISOString();\n',
      'scripts/layers/wall-clock.txt': `${file}\n`,
    });
    expect(listed).toEqual([]);
  }, 30_000);

  it('lets the composition root, and a listed file until it moves, name a simulator table', async () => {
    const reads =
      "import type pg from 'pg';\nexport const n = (db: pg.Pool) => db.query('select 1 from kyc_sim_applicants');\n";
    const found = await violations({
      ...CLEAN,
      'apps/server/src/compose-providers.ts': `${reads}// banksim_webhooks, travel_rule_sim_messages\n`,
      'apps/server/src/modules/b/service.ts': reads,
      'scripts/layers/simulator-tables.txt': 'apps/server/src/modules/b/service.ts\n',
    });
    expect(found.filter((v) => v.rule.startsWith('simulator-tables'))).toEqual([]);
    const unlisted = await violations({ ...CLEAN, 'apps/server/src/modules/b/service.ts': reads });
    expect(unlisted.filter((v) => v.rule.startsWith('simulator-tables'))).toEqual([
      {
        rule: 'simulator-tables-in-the-server',
        from: 'apps/server/src/modules/b/service.ts',
        to: 'a simulator table (kyc_sim_, cardsim_, banksim_, travel_rule_sim_, smssim_, mailsim_, btcsim_, tronsim_)',
      },
    ]);
    // The SMS simulator's tables too: an adapter of the product reading the simulated phone's messages.
    const sms = await violations({
      ...CLEAN,
      'apps/server/src/adapters/sms/inbox.ts':
        "export const q = 'select body_sealed from smssim_messages';\n",
    });
    expect(sms.filter((v) => v.rule.startsWith('simulator-tables')).map((v) => v.from)).toEqual([
      'apps/server/src/adapters/sms/inbox.ts',
    ]);
  }, 30_000);

  it('asks a read whose rows are used for their type, unless the line says why not', async () => {
    const file = 'apps/server/src/modules/a/repository.ts';
    const repository = (body: string) => ({ ...CLEAN, [file]: `import type pg from 'pg';\n${body}` });
    // Typed, or its result not used: nothing to say.
    const typed = await violations(
      repository(
        'export const listA = async (db: pg.Pool) => {\n' +
          "  const r = await db.query<{ n: number }>('select 1 as n');\n" +
          "  await db.query('select 1');\n" +
          '  return r.rows;\n};\n',
      ),
    );
    expect(typed).toEqual([]);
    // As the formatter splits a long one over lines.
    const split = await violations(
      repository(
        "export const listA = async (db: pg.Pool) =>\n  (\n    await db.query('select 1 as n')\n  ).rows;\n",
      ),
    );
    expect(split).toEqual([{ rule: 'untyped-sql-read', from: file, to: expect.stringContaining('line 4:') }]);
    const excused = await violations(
      repository(
        'export const listA = async (db: pg.Pool) => {\n' +
          "  const r = await db.query('select 1 as n'); // untyped: a fixture\n" +
          '  return r.rowCount;\n};\n',
      ),
    );
    expect(excused).toEqual([]);
  }, 30_000);

  it("names the rule and the way in: a workspace's package name; a workspace may import the root's tools", async () => {
    const file = 'apps/server/src/core/sequencer.ts';
    const found = await violations({
      ...CLEAN,
      [file]:
        "import { add } from '../../../../packages/engine/src/index.ts';\nexport const one = add(0n, 1n);\n",
    });
    expect(found).toEqual([
      {
        rule: 'no-relative-import-across-workspaces',
        from: file,
        to: 'packages/engine/src/index.ts (in packages/engine: import it by its package name, through an entry of the "exports" of packages/engine/package.json)',
      },
    ]);
    // The root's files are no workspace's: a workspace's test may import the repository's checks (no package names them).
    const tools = await violations({
      ...CLEAN,
      'scripts/tool.mjs': 'export const tool = 1;\n',
      'apps/server/test/tool.test.ts':
        "import { tool } from '../../../scripts/tool.mjs';\nexport const t = tool;\n",
    });
    expect(tools).toEqual([]);
  }, 30_000);

  it('every rule of the rule set has a case here', async () => {
    const { FORBIDDEN } = await import('../../../../scripts/layers/rules.mjs');
    const named = (FORBIDDEN as { name: string }[]).map((r) => r.name);
    const covered = CASES.map((c) => c.rule);
    for (const name of named) expect(covered).toContain(name);
  });
});
