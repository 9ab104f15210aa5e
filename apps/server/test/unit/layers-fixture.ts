/** The layering check's test tree (layers.test.ts): a clean tree, and one case per rule that breaks it. */

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
export const CLEAN: Record<string, string> = {
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
export const CASES: { rule: string; files: Record<string, string> }[] = [
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
