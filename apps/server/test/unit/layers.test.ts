import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkLayers } from '../../../../scripts/check-layers.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** The fixture server's package.json, with `more` dependencies than the clean tree's. */
const serverManifest = (more: Record<string, string> = {}, exports?: Record<string, string>) =>
  json({
    name: '@fixture/server',
    ...(exports && { exports }),
    dependencies: { pg: '*', '@fixture/engine': '*', ...more },
  });

/** The fixture engine's package.json (its one entry, as a workspace is imported: by name). */
const engineManifest = (more: object = {}) =>
  json({ name: '@fixture/engine', exports: { '.': './src/index.ts' }, ...more });

/**
 * A small repository that keeps every rule: a server with a core, two modules (routes, repository, service), the
 * app and its composition root, a pure engine (imported by its package name) and a web app. Each case below adds or
 * replaces files to break one rule.
 */
const CLEAN: Record<string, string> = {
  'package.json': json({
    name: 'fixture',
    private: true,
    workspaces: [
      'apps/server',
      'apps/web',
      'packages/engine',
      'packages/provider-sims',
      'packages/chain-sim',
    ],
  }),
  'apps/server/package.json': serverManifest(),
  'apps/web/package.json': json({ name: '@fixture/web' }),
  'packages/engine/package.json': engineManifest(),
  'packages/engine/src/index.ts':
    'export const add = (a: bigint, b: bigint): bigint => a + b;\nexport type Add = typeof add;\n',
  'apps/server/src/compose.ts': "import { buildApp } from './app.ts';\nexport const app = buildApp();\n",
  'apps/server/src/app.ts':
    "import type { AppDeps } from './app-deps.ts';\nimport { aRoutes } from './modules/a/routes.ts';\n" +
    'export function buildApp(deps?: AppDeps) {\n  return aRoutes(deps);\n}\n',
  'apps/server/src/app-deps.ts': "import type pg from 'pg';\nexport interface AppDeps {\n  db: pg.Pool;\n}\n",
  'apps/server/src/core/sequencer.ts':
    "import { add } from '@fixture/engine';\nexport const one = add(0n, 1n);\n",
  'apps/server/src/db/seed.ts': 'export const seeded = true;\n',
  'apps/server/src/modules/a/deps.ts':
    "import type pg from 'pg';\nexport interface ADeps {\n  db: pg.Pool;\n}\n",
  'apps/server/src/modules/a/routes.ts':
    "import type { ADeps } from './deps.ts';\nimport { listA } from './repository.ts';\n" +
    'export const aRoutes = (deps?: ADeps) => (deps ? listA(deps.db) : undefined);\n',
  'apps/server/src/modules/a/repository.ts':
    "import type pg from 'pg';\nexport const listA = (db: pg.Pool) => db.query('select 1');\n",
  'apps/server/src/modules/b/service.ts':
    "import { one } from '../../core/sequencer.ts';\nimport { listA } from '../a/repository.ts';\nexport const b = [listA, one];\n",
  'apps/web/src/main.ts': 'export const web = 1;\n',
};

/** One case per rule: the files that break it (added to, or replacing, the clean tree). */
const CASES: { rule: string; files: Record<string, string> }[] = [
  {
    rule: 'engine-no-io',
    files: {
      'packages/engine/src/io.ts':
        "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n",
    },
  },
  {
    rule: 'engine-no-io-packages',
    files: {
      'packages/engine/package.json': engineManifest({ dependencies: { pg: '*' } }),
      'packages/engine/src/db.ts': "import pg from 'pg';\nexport const p = pg;\n",
    },
  },
  {
    rule: 'core-no-modules',
    files: {
      'apps/server/src/core/uses-module.ts':
        "import { listA } from '../modules/a/repository.ts';\nexport const x = listA;\n",
    },
  },
  {
    rule: 'no-other-module-routes',
    files: {
      'apps/server/src/modules/b/uses-routes.ts':
        "import { aRoutes } from '../a/routes.ts';\nexport const x = aRoutes;\n",
    },
  },
  {
    rule: 'modules-no-seed-demo-dev',
    files: {
      'apps/server/src/modules/b/seeded.ts':
        "import { seeded } from '../../db/seed.ts';\nexport const x = seeded;\n",
    },
  },
  {
    rule: 'no-app-import',
    files: {
      'apps/server/src/modules/b/app-user.ts':
        "import { buildApp } from '../../app.ts';\nexport const x = buildApp;\n",
    },
  },
  {
    rule: 'no-app-deps-import-in-src',
    files: {
      'apps/server/src/modules/b/deps-user.ts':
        "import type { AppDeps } from '../../app-deps.ts';\nexport type X = AppDeps;\n",
    },
  },
  {
    rule: 'simulators-only-in-composition',
    files: {
      'packages/provider-sims/package.json': json({
        name: '@fixture/provider-sims',
        exports: { './kyc': './src/kyc.ts' },
      }),
      'packages/provider-sims/src/kyc.ts': 'export const kycSimulator = 1;\n',
      'apps/server/package.json': serverManifest({ '@fixture/provider-sims': '*' }),
      'apps/server/src/modules/b/sim.ts':
        "import { kycSimulator } from '@fixture/provider-sims/kyc';\nexport const s = kycSimulator;\n",
    },
  },
  {
    rule: 'chain-simulators-only-in-networks',
    files: {
      'packages/chain-sim/package.json': json({
        name: '@fixture/chain-sim',
        exports: { '.': './src/index.ts' },
      }),
      'packages/chain-sim/src/index.ts': 'export const node = 1;\n',
      'apps/server/package.json': serverManifest({ '@fixture/chain-sim': '*' }),
      'apps/server/src/modules/b/node.ts':
        "import { node } from '@fixture/chain-sim';\nexport const n = node;\n",
    },
  },
  {
    // Through another entry of the server than its kit: one meant for e2e and the benchmarks.
    rule: 'simulators-through-kit',
    files: {
      'apps/server/package.json': serverManifest({}, { './harness': './test/support/harness.ts' }),
      'apps/server/test/support/harness.ts': "export { listA } from '../../src/modules/a/repository.ts';\n",
      'packages/provider-sims/package.json': json({
        name: '@fixture/provider-sims',
        dependencies: { '@fixture/server': '*' },
      }),
      'packages/provider-sims/src/kyc.ts':
        "import { listA } from '@fixture/server/harness';\nexport const x = listA;\n",
    },
  },
  {
    rule: 'web-no-server',
    files: {
      'apps/web/package.json': json({ name: '@fixture/web', dependencies: { '@fixture/engine': '*' } }),
      'apps/web/src/reach.ts': "import { add } from '@fixture/engine';\nexport const x = add;\n",
    },
  },
  {
    // Through a type-only import: a circle of types is a circle too.
    rule: 'no-circular',
    files: {
      'apps/server/src/modules/b/x.ts':
        "import type { Y } from './y.ts';\nexport interface X {\n  y?: Y;\n}\n",
      'apps/server/src/modules/b/y.ts':
        "import type { X } from './x.ts';\nexport interface Y {\n  x?: X;\n}\n",
    },
  },
  {
    rule: 'not-in-package-json',
    files: {
      'apps/server/src/modules/b/broker.ts': "import { connect } from 'nats';\nexport const c = connect;\n",
    },
  },
  {
    // A workspace the root declares (for its scripts) is not declared for the other workspaces by that.
    rule: 'not-in-package-json',
    files: {
      'package.json': json({
        ...JSON.parse(CLEAN['package.json'] ?? '{}'),
        devDependencies: { '@fixture/engine': '*' },
      }),
      'apps/server/package.json': json({ name: '@fixture/server', dependencies: { pg: '*' } }),
      'apps/server/src/core/sequencer.ts': CLEAN['apps/server/src/core/sequencer.ts'] ?? '',
    },
  },
  {
    rule: 'not-resolvable',
    files: {
      'apps/server/src/modules/b/missing.ts':
        "import { gone } from './nowhere.ts';\nexport const x = gone;\n",
    },
  },
  {
    // From a workspace into another by a path, even for a type: the engine is `@fixture/engine`.
    rule: 'no-relative-import-across-workspaces',
    files: {
      'apps/server/src/core/sequencer.ts':
        "import type { Add } from '../../../../packages/engine/src/index.ts';\nexport type One = Add;\n",
    },
  },
  {
    // From the root package's own files (a script) into a workspace, by a dynamic import.
    rule: 'no-relative-import-across-workspaces',
    files: {
      'scripts/bench/engine.ts':
        "export const engine = () => import('../../packages/engine/src/index.ts');\n",
    },
  },
  {
    rule: 'no-sql-in-routes',
    files: {
      'apps/server/src/modules/a/routes.ts':
        "import type { ADeps } from './deps.ts';\nexport const aRoutes = (deps?: ADeps) => deps?.db.query('select 1');\n",
    },
  },
  {
    rule: 'sql-outside-repositories',
    files: {
      'apps/server/src/modules/b/service.ts':
        "import type pg from 'pg';\nexport const b = (db: pg.Pool) => db.query('select 1');\n",
    },
  },
  {
    // Outside the modules too: an adapter or an HTTP helper keeps its SQL in a repository of its own.
    rule: 'sql-outside-repositories',
    files: {
      'apps/server/src/http/limits.ts':
        "import type pg from 'pg';\nexport const hit = (db: pg.Pool) => db.query('select 1');\n",
    },
  },
  {
    // The list of files still allowed SQL outside a repository names one that runs none.
    rule: 'sql-list-stale',
    files: {
      'scripts/layers/sql-outside-repositories.txt': '# allowed\napps/server/src/modules/b/service.ts\n',
    },
  },
  {
    // A module dates something by the machine's clock instead of the app's.
    rule: 'wall-clock-outside-the-clock',
    files: {
      'apps/server/src/modules/b/service.ts': 'export const late = (due: number) => Date.now() > due;\n',
    },
  },
  {
    // The list of files still allowed the machine's clock names one that no longer reads it.
    rule: 'wall-clock-list-stale',
    files: { 'scripts/layers/wall-clock.txt': '# allowed\napps/server/src/modules/b/service.ts\n' },
  },
  {
    // Product code (here the core, outside the modules) reads a provider simulator's table.
    rule: 'simulator-tables-in-the-server',
    files: {
      'apps/server/src/core/cards.ts':
        "import type pg from 'pg';\nexport const onCard = (db: pg.Pool) => db.query('select 1 from cardsim_cards');\n",
    },
  },
  {
    // The list of server files still allowed a simulator's table names one that no longer names any.
    rule: 'simulator-tables-list-stale',
    files: { 'scripts/layers/simulator-tables.txt': '# allowed\napps/server/src/modules/b/service.ts\n' },
  },
  {
    // A read whose rows are used without their type: they would be `any`.
    rule: 'untyped-sql-read',
    files: {
      'apps/server/src/modules/a/repository.ts':
        "import type pg from 'pg';\nexport const listA = async (db: pg.Pool) => (await db.query('select 1 as n')).rows;\n",
    },
  },
  {
    rule: 'types-are-dev-dependencies',
    files: {
      'apps/server/package.json': serverManifest({ '@types/pg': '*' }),
    },
  },
];

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
