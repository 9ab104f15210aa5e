#!/usr/bin/env node
/**
 * Checks the layering rules (scripts/layers/rules.mjs) with dependency-cruiser, plus rules an import graph
 * cannot see: route files hold no SQL (no `.query(` in a server `routes.ts` or `*-routes.ts`: it belongs in the
 * module's repository or service), the lists that only shrink (SQL outside repositories, the machine's clock, a
 * simulator's tables named in the server), server reads that declare their row type, and type packages (`@types/*`)
 * are development dependencies; and, from the graph, imports a workspace does not declare, and relative imports that
 * cross into another workspace (a workspace is imported by its package name, through its package.json `exports`).
 * Part of `npm run lint`; prints each violation and exits 1 when there is one.
 *
 * `checkLayers(baseDir)` is exported for the test that runs it on a tree breaking each rule.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise } from 'dependency-cruiser';
import { FORBIDDEN } from './layers/rules.mjs';

/** Where the code lives, relative to the repository's root (those present are cruised). */
const ROOTS = [
  'apps/server/src',
  'apps/server/test',
  'apps/web/src',
  'apps/web/test',
  'packages/shared/src',
  'packages/engine/src',
  'packages/engine/test',
  'packages/chain-sim/src',
  'packages/chain-sim/test',
  'packages/provider-sims/src',
  'packages/provider-sims/test',
  'e2e',
  'scripts',
];

/** A file name that marks a route file. */
const ROUTE_FILE = /(^|\/)(routes|[^/]+-routes)\.ts$/;

/** A file name that marks a repository: where a module's SQL lives. */
const REPOSITORY_FILE = /(^|\/)(repository|[^/]+-repository)\.ts$/;

/**
 * The server files that still run SQL outside a repository (issue 34, item 3), one path per line: the list only
 * shrinks. A server file not on it that runs a query fails the check, and so does a listed file that no longer does.
 */
const SQL_LIST = 'scripts/layers/sql-outside-repositories.txt';

/**
 * The module files that still read the machine's clock instead of the app's (issue 34, item 5), one path per line:
 * the list only shrinks. Those left on it time something operational (a cache, a poll, a wait), not a rule.
 */
const WALL_CLOCK_LIST = 'scripts/layers/wall-clock.txt';

/**
 * The server files that still name a provider simulator's table (issue 34, item 4), one path per line: the list only
 * shrinks (it is empty now). The product knows a provider through its port, as it would the real one; a simulator's
 * tables are the simulator's own (packages/provider-sims).
 */
const SIMULATOR_TABLES_LIST = 'scripts/layers/simulator-tables.txt';

/**
 * A simulator table's name: the KYC, card issuer, bank, travel-rule and SMS simulators' prefixes, and the Bitcoin
 * and TRON node simulators'.
 */
const SIMULATOR_TABLE = /\b(kyc_sim_|cardsim_|banksim_|travel_rule_sim_|smssim_|mailsim_|btcsim_|tronsim_)/;

/** The server files that may name them: the composition root and the ports simulators are composed by. */
const SIMULATOR_COMPOSITION = new Set([
  'apps/server/src/compose.ts',
  'apps/server/src/compose-providers.ts',
  'apps/server/src/adapters/simulators.ts',
]);

/**
 * A `.query(` without a type parameter whose result the same statement uses (issue 34, item 3): awaited inside
 * parentheses (`(await db.query(...)).rows`), or assigned (`const r = await db.query(`); or, as the formatter splits
 * those, an `await db.query(` line after one that ends with `(` or `=`. Its rows would be `any`: the call names its
 * row type (`db.query<{ id: string }>(`), or the line says why not with `// untyped: <reason>`.
 */
const UNTYPED_READ = [
  /\(\s*await\s+[\w.]+\.query\(/,
  /\b(?:const|let|var)\s+[^=]+=\s*await\s+[\w.]+\.query\(/,
];
const UNTYPED_READ_SPLIT = /^\s*await\s+[\w.]+\.query\(/;

/** A read of the machine's clock. */
const WALL_CLOCK = /\bDate\.now\(\)|\bnew Date\(\)/;

/**
 * @typedef {{ rule: string; from: string; to: string }} Violation
 */

/**
 * The violations of the layering rules in the repository (or test tree) at `baseDir`.
 * @param {string} baseDir
 * @returns {Promise<Violation[]>}
 */
export async function checkLayers(baseDir) {
  const roots = ROOTS.filter((root) => existsSync(path.join(baseDir, root)));
  const previous = process.cwd();
  // dependency-cruiser reports paths relative to the working directory; the rules are written relative to the root.
  process.chdir(baseDir);
  let result;
  try {
    result = await cruise(
      roots,
      {
        ruleSet: { forbidden: FORBIDDEN },
        validate: true,
        // Type-only imports count: a circle through types is still a circle, an undeclared type package still missing.
        tsPreCompilationDeps: true,
        // A workspace's own package.json plus the root's (the shared toolchain: vitest, typescript, @types/node).
        combinedDependencies: true,
        // Build output and data folders of the workspaces (not a package's own dist/ in node_modules).
        exclude: { path: ['^apps/[^/]+/dist/', '^packages/[^/]+/dist/', '^data/'] },
        doNotFollow: { path: 'node_modules' },
      },
      { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
    );
  } finally {
    process.chdir(previous);
  }
  /** @type {Violation[]} */
  const violations = result.output.summary.violations.map((v) => ({
    rule: v.rule.name,
    from: v.from,
    to: v.cycle ? v.cycle.map((step) => (typeof step === 'string' ? step : step.name)).join(' > ') : v.to,
  }));
  violations.push(...undeclared(baseDir, result.output.modules));
  violations.push(...relativeAcrossWorkspaces(baseDir, result.output.modules));
  for (const file of routeFiles(baseDir)) {
    const text = readFileSync(path.join(baseDir, file), 'utf8');
    if (text.includes('.query(')) violations.push({ rule: 'no-sql-in-routes', from: file, to: '.query(' });
  }
  violations.push(...sqlOutsideRepositories(baseDir));
  violations.push(...wallClockOutsideTheClock(baseDir));
  violations.push(...simulatorTablesInTheServer(baseDir));
  violations.push(...untypedReads(baseDir));
  for (const manifest of manifests(baseDir)) {
    const pkg = JSON.parse(readFileSync(path.join(baseDir, manifest), 'utf8'));
    for (const name of Object.keys(pkg.dependencies ?? {}))
      if (name.startsWith('@types/'))
        violations.push({ rule: 'types-are-dev-dependencies', from: manifest, to: name });
  }
  return violations;
}

/**
 * Imports of a package (npm or workspace) that the importing file's workspace does not declare: the closest
 * package.json to the file, plus the root's (the shared toolchain), but for the workspaces the root declares (for
 * its scripts): a workspace that imports another declares it itself. Node's built-ins need no declaration.
 */
function undeclared(baseDir, modules) {
  /** @type {Violation[]} */
  const found = [];
  const declared = new Map();
  const workspaceNames = new Set(
    manifests(baseDir)
      .filter((m) => m !== 'package.json')
      .map((m) => JSON.parse(readFileSync(path.join(baseDir, m), 'utf8')).name),
  );
  for (const module of modules) {
    if (module.source.includes('node_modules/')) continue;
    for (const dep of module.dependencies) {
      if (
        dep.coreModule ||
        dep.module.startsWith('.') ||
        dep.module.startsWith('/') ||
        dep.module.includes(':')
      )
        continue;
      const name = dep.module.match(/^(@[^/]+\/)?[^/]+/)?.[0];
      const manifest = closestManifest(baseDir, module.source);
      if (!name || !manifest) continue;
      if (!declared.has(manifest)) declared.set(manifest, declaredNames(baseDir, manifest, workspaceNames));
      if (!declared.get(manifest).has(name))
        found.push({ rule: 'not-in-package-json', from: module.source, to: `${name} (not in ${manifest})` });
    }
  }
  return found;
}

/**
 * Relative imports (static, dynamic or type-only) whose target lies in another workspace, or that leave the root
 * package's own files (`scripts`) into a workspace: a workspace is reached by its package name, through an entry of
 * its package.json `exports` that says what the importer may use, never by a path into its files. A workspace's
 * file may import the root's (the repository's checks and tools, which no workspace can name as a package).
 */
function relativeAcrossWorkspaces(baseDir, modules) {
  const root = path.join(baseDir, 'package.json');
  const workspaces = existsSync(root) ? (JSON.parse(readFileSync(root, 'utf8')).workspaces ?? []) : [];
  /** The workspace folder holding `file`, or undefined for the root package's own files. */
  const owner = (file) => workspaces.find((w) => file.startsWith(`${w}/`));
  /** @type {Violation[]} */
  const found = [];
  for (const module of modules) {
    if (module.source.includes('node_modules/')) continue;
    for (const dep of module.dependencies) {
      if (!dep.module.startsWith('.') || dep.couldNotResolve || dep.resolved.includes('node_modules/'))
        continue;
      const target = owner(dep.resolved);
      if (target === undefined || target === owner(module.source)) continue;
      found.push({
        rule: 'no-relative-import-across-workspaces',
        from: module.source,
        to: `${dep.resolved} (in ${target}: import it by its package name, through an entry of the "exports" of ${target}/package.json)`,
      });
    }
  }
  return found;
}

/** The package.json closest to `file` (both relative to `baseDir`), or undefined outside any. */
function closestManifest(baseDir, file) {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const candidate = dir === '.' ? 'package.json' : `${dir}/package.json`;
    if (existsSync(path.join(baseDir, candidate))) return candidate;
    if (dir === '.' || dir === '/') return undefined;
  }
}

/** What a package.json declares (any kind of dependency), plus the root's but for its `workspaceNames`. */
function declaredNames(baseDir, manifest, workspaceNames) {
  const names = new Set();
  for (const m of new Set([manifest, 'package.json'])) {
    const pkg = JSON.parse(readFileSync(path.join(baseDir, m), 'utf8'));
    const counts = (name) => m === manifest || !workspaceNames.has(name);
    names.add(pkg.name);
    for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'])
      for (const name of Object.keys(pkg[field] ?? {})) if (counts(name)) names.add(name);
  }
  return names;
}

/** The server's route files, relative to `baseDir`. */
function routeFiles(baseDir) {
  return sourceFiles(baseDir, 'apps/server/src').filter((f) => ROUTE_FILE.test(f));
}

/** The TypeScript files under `dir`, relative to `baseDir`. */
function sourceFiles(baseDir, dir) {
  const root = path.join(baseDir, dir);
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .map((f) => path.join(dir, f).split(path.sep).join('/'))
    .filter((f) => f.endsWith('.ts'));
}

/**
 * Where SQL may run outside a repository: the data layer itself (`db/`: the pool, migrations, locks, the change feed,
 * the reference data) and the core's write path with its own checks (`core/`: the journal, the projector, recovery,
 * the audit), whose batched statements are faster written where they are built.
 */
const SQL_LAYERS = /^apps\/server\/src\/(db|core)\//;

/**
 * Server files (not repositories, not route files: those have a rule of their own, not the data layer or the core's
 * write path) that run SQL without being on {@link SQL_LIST}, and listed files that no longer run any (the list is
 * kept exact, so it only shrinks).
 */
function sqlOutsideRepositories(baseDir) {
  return shrinkingList(baseDir, {
    dir: 'apps/server/src',
    list: SQL_LIST,
    rule: 'sql-outside-repositories',
    stale: 'sql-list-stale',
    what: '.query(',
    exempt: (file) => REPOSITORY_FILE.test(file) || ROUTE_FILE.test(file) || SQL_LAYERS.test(file),
    uses: (text) => text.includes('.query('),
  });
}

/**
 * Module files that read the machine's clock (`Date.now()`, `new Date()`) instead of the app's (clock.ts), without
 * being on {@link WALL_CLOCK_LIST}; and listed files that no longer do. A rule dated by the machine's clock cannot
 * be moved in time by a test (issue 34, item 5).
 */
function wallClockOutsideTheClock(baseDir) {
  return shrinkingList(baseDir, {
    list: WALL_CLOCK_LIST,
    rule: 'wall-clock-outside-the-clock',
    stale: 'wall-clock-list-stale',
    what: 'Date.now() or new Date()',
    exempt: () => false,
    uses: (text) => WALL_CLOCK.test(withoutComments(text)),
  });
}

/**
 * Server files (outside the composition root) that name a simulator's table without being on
 * {@link SIMULATOR_TABLES_LIST}, and listed files that no longer do: the product reads no simulator's state, not even
 * in a comment that would invite it (the migrations that make those tables are SQL files, not checked).
 */
function simulatorTablesInTheServer(baseDir) {
  return shrinkingList(baseDir, {
    dir: 'apps/server/src',
    list: SIMULATOR_TABLES_LIST,
    rule: 'simulator-tables-in-the-server',
    stale: 'simulator-tables-list-stale',
    what: 'a simulator table (kyc_sim_, cardsim_, banksim_, travel_rule_sim_, smssim_, mailsim_, btcsim_, tronsim_)',
    exempt: (file) => SIMULATOR_COMPOSITION.has(file),
    uses: (text) => SIMULATOR_TABLE.test(text),
  });
}

/**
 * Server files' SQL reads whose rows are used without a declared row type ({@link UNTYPED_READ}), one violation per
 * line. Line by line: a read split some other way is not seen, but the formatter's shapes are.
 */
function untypedReads(baseDir) {
  /** @type {Violation[]} */
  const found = [];
  for (const file of sourceFiles(baseDir, 'apps/server/src')) {
    const lines = readFileSync(path.join(baseDir, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (!line.includes('.query(') || line.includes('// untyped:')) return;
      const split = UNTYPED_READ_SPLIT.test(line) && /[(=]$/.test((lines[i - 1] ?? '').trimEnd());
      if (split || UNTYPED_READ.some((re) => re.test(line)))
        found.push({
          rule: 'untyped-sql-read',
          from: file,
          to: `line ${i + 1}: .query( without a row type (write .query<Row>(, or \`// untyped: <reason>\` on the line)`,
        });
    });
  }
  return found;
}

/** `text` without its comments (line comments and doc comments), roughly: enough that prose never counts as code. */
function withoutComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
}

/**
 * A rule kept by a list that only shrinks: the files under `dir` (module files by default), not `exempt`, whose text
 * `uses` the thing must be on the list at `list`, and every listed file must still use it (so the list stays exact).
 * @param {string} baseDir
 * @param {{ dir?: string; list: string; rule: string; stale: string; what: string;
 *   exempt: (file: string) => boolean; uses: (text: string) => boolean }} check
 * @returns {Violation[]}
 */
function shrinkingList(baseDir, check) {
  const listPath = path.join(baseDir, check.list);
  const listed = existsSync(listPath)
    ? readFileSync(listPath, 'utf8')
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '' && !line.startsWith('#'))
    : [];
  /** @type {Violation[]} */
  const found = [];
  const uses = (file) => check.uses(readFileSync(path.join(baseDir, file), 'utf8'));
  for (const file of sourceFiles(baseDir, check.dir ?? 'apps/server/src/modules')) {
    if (check.exempt(file) || listed.includes(file)) continue;
    if (uses(file)) found.push({ rule: check.rule, from: file, to: check.what });
  }
  for (const file of listed)
    if (!existsSync(path.join(baseDir, file)) || !uses(file))
      found.push({ rule: check.stale, from: check.list, to: `${file} (no ${check.what} now: remove it)` });
  return found;
}

/** The root's and every workspace's package.json, relative to `baseDir`. */
function manifests(baseDir) {
  const root = path.join(baseDir, 'package.json');
  if (!existsSync(root)) return [];
  const workspaces = JSON.parse(readFileSync(root, 'utf8')).workspaces ?? [];
  return ['package.json', ...workspaces.map((w) => `${w}/package.json`)].filter((m) =>
    existsSync(path.join(baseDir, m)),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const violations = await checkLayers(root);
  for (const v of violations) console.error(`check-layers: ${v.rule}: ${v.from} -> ${v.to}`);
  if (violations.length > 0) {
    console.error(
      `check-layers: ${violations.length} violation(s) of the layering rules (scripts/layers/rules.mjs)`,
    );
    process.exit(1);
  }
  console.log(
    'check-layers: no layering violation, no import circle, every import declared, no relative import across ' +
      'workspaces, every SQL read typed',
  );
}
