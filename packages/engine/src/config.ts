/** Validation of an EngineConfig (throws on a bad config: that is a programming/deployment error). */
import type { EngineConfig, FeeRates, MarketConfig } from './types.ts';

const PPM = 1_000_000n;

function fail(msg: string): never {
  throw new Error(`engine config: ${msg}`);
}

function isPrecision(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 30;
}

function checkRate(what: string, r: unknown): void {
  if (!validRate(r)) fail(`${what}: fee rate must be a bigint in [0, 1000000] ppm`);
}

/**
 * What is wrong with a market's config given the currencies' precisions, or null. Shared by the config check at
 * construction and the `AddMarket`/`UpdateMarket` commands, so a market added at run time obeys the same rules.
 */
export function marketProblem(m: MarketConfig, precisions: ReadonlyMap<string, number>): string | null {
  if (typeof m !== 'object' || m === null || typeof m.id !== 'string' || m.id === '') return 'bad id';
  const bp = precisions.get(m.base);
  const qp = precisions.get(m.quote);
  if (bp === undefined || qp === undefined) return 'unknown currency';
  if (m.base === m.quote) return 'base equals quote';
  if (!isPrecision(m.pricePrecision) || !isPrecision(m.amountPrecision)) return 'bad precision';
  if (m.pricePrecision + m.amountPrecision > qp)
    return `pricePrecision + amountPrecision exceeds ${m.quote} precision`;
  if (m.amountPrecision > bp) return `amountPrecision exceeds ${m.base} precision`;
  if (typeof m.minPrice !== 'bigint' || typeof m.maxPrice !== 'bigint' || typeof m.minAmount !== 'bigint')
    return 'minPrice, maxPrice and minAmount must be bigint';
  if (m.minPrice <= 0n || m.maxPrice < m.minPrice) return 'bad price bounds';
  if (m.minAmount <= 0n) return 'minAmount must be positive';
  if (m.state !== 'enabled' && m.state !== 'disabled') return 'bad state';
  return null;
}

/** True for fee rates the engine accepts: bigint parts per million in [0, 1000000]. */
export function validRate(r: unknown): r is bigint {
  return typeof r === 'bigint' && r >= 0n && r <= PPM;
}

/** Throw if the config is inconsistent; returns the default fee rates. */
export function validateConfig(cfg: EngineConfig): FeeRates {
  const prec = new Map<string, number>();
  for (const c of cfg.currencies) {
    if (typeof c.id !== 'string' || c.id === '') fail('currency id must be a non-empty string');
    if (prec.has(c.id)) fail(`duplicate currency ${c.id}`);
    if (!isPrecision(c.precision)) fail(`currency ${c.id}: bad precision`);
    prec.set(c.id, c.precision);
  }
  const ids = new Set<string>();
  for (const m of cfg.markets) {
    if (ids.has(m.id)) fail(`duplicate market ${m.id}`);
    ids.add(m.id);
    const problem = marketProblem(m, prec);
    if (problem !== null) fail(`market ${m.id}: ${problem}`);
  }
  const maker = cfg.fees?.defaultMaker ?? 1000n;
  const taker = cfg.fees?.defaultTaker ?? 1000n;
  checkRate('default maker', maker);
  checkRate('default taker', taker);
  for (const r of cfg.fees?.rules ?? []) {
    if (r.market !== undefined && !ids.has(r.market)) fail(`fee rule: unknown market ${r.market}`);
    if (r.level !== undefined && !(Number.isSafeInteger(r.level) && r.level >= 0))
      fail('fee rule: bad level');
    checkRate('fee rule maker', r.maker);
    checkRate('fee rule taker', r.taker);
  }
  for (const [user, level] of cfg.tradingLevels ?? []) {
    if (!Number.isSafeInteger(user) || user < 0 || !Number.isSafeInteger(level) || level < 0) {
      fail('tradingLevels: user and level must be non-negative integers');
    }
  }
  return { maker, taker };
}
