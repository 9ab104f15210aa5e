/**
 * Market and fee commands: add a market, change its bounds or state, set a fee rule. Each accepted command emits
 * the resulting config as an event, so the core can write the reference tables in the same transaction as the
 * batch and the edges can learn of the change from the batch alone.
 */
import { Rejection, type RejectionCode } from './codes.ts';
import { marketProblem, validRate } from './config.ts';
import type { MarketRt } from './market-rt.ts';
import type { CoreState, Tx } from './state.ts';
import type { AddMarket, MarketConfig, SetFeeRule, SetMarketState, UpdateMarket } from './types.ts';
import { validLevel } from './wallet.ts';

function configOf(m: MarketRt): MarketConfig {
  return { ...m.cfg, state: m.state };
}

function emitUpdated(tx: Tx, m: MarketRt): void {
  tx.events[tx.nEvents++] = { type: 'MarketUpdated', market: configOf(m), at: tx.at };
}

/** Replaces the rule of the same (market, level) scope, or adds it, and rebuilds every market's fee table. */
function putRule(st: CoreState, tx: Tx, rule: SetFeeRule['rule']): void {
  const rules = st.feeRules.filter((x) => x.market !== rule.market || x.level !== rule.level);
  rules.push({ ...rule });
  st.feeRules = rules;
  for (const m of st.markets.values()) m.rebuildFees(st.feeDefaults, rules);
  tx.events[tx.nEvents++] = { type: 'FeeRuleSet', rule: { ...rule }, at: tx.at };
}

/** SetFeeRule: replaces the rule with the same (market, level) scope, or adds it. */
export function setFeeRule(st: CoreState, tx: Tx, c: SetFeeRule): RejectionCode | null {
  const r = c.rule;
  if (typeof r !== 'object' || r === null) return Rejection.InvalidCommand;
  if (r.market !== undefined && !st.markets.has(r.market)) return Rejection.MarketNotFound;
  if (r.level !== undefined && !validLevel(r.level)) return Rejection.InvalidTradingLevel;
  if (!validRate(r.maker) || !validRate(r.taker)) return Rejection.InvalidFeeRate;
  putRule(st, tx, r);
  return null;
}

/** SetMarketState. */
export function setMarketState(st: CoreState, tx: Tx, c: SetMarketState): RejectionCode | null {
  const m = st.markets.get(c.market);
  if (m === undefined) return Rejection.MarketNotFound;
  if (c.state !== 'enabled' && c.state !== 'disabled') return Rejection.InvalidMarketState;
  m.state = c.state;
  emitUpdated(tx, m);
  return null;
}

/** AddMarket: a new market with an empty book, and its fee rule when given. */
export function addMarket(st: CoreState, tx: Tx, c: AddMarket): RejectionCode | null {
  const cfg = c.market;
  if (typeof cfg !== 'object' || cfg === null) return Rejection.InvalidCommand;
  if (typeof cfg.id === 'string' && st.markets.has(cfg.id)) return Rejection.MarketExists;
  if (marketProblem(cfg, st.precisions()) !== null) return Rejection.InvalidMarket;
  if (c.fees !== undefined && (!validRate(c.fees.maker) || !validRate(c.fees.taker)))
    return Rejection.InvalidFeeRate;
  // Only the fields of a market config: the command object may carry more.
  const m = st.addMarket({
    id: cfg.id,
    base: cfg.base,
    quote: cfg.quote,
    pricePrecision: cfg.pricePrecision,
    amountPrecision: cfg.amountPrecision,
    minPrice: cfg.minPrice,
    maxPrice: cfg.maxPrice,
    minAmount: cfg.minAmount,
    state: cfg.state,
  });
  tx.events[tx.nEvents++] = { type: 'MarketAdded', market: configOf(m), at: tx.at };
  if (c.fees !== undefined) putRule(st, tx, { market: m.id, maker: c.fees.maker, taker: c.fees.taker });
  return null;
}

/** UpdateMarket: new bounds, state and/or fees; checked as a whole before anything changes. */
export function updateMarket(st: CoreState, tx: Tx, c: UpdateMarket): RejectionCode | null {
  const m = st.markets.get(c.market);
  if (m === undefined) return Rejection.MarketNotFound;
  if (c.state !== undefined && c.state !== 'enabled' && c.state !== 'disabled')
    return Rejection.InvalidMarketState;
  const next: MarketConfig = {
    ...configOf(m),
    ...(c.minPrice === undefined ? {} : { minPrice: c.minPrice }),
    ...(c.maxPrice === undefined ? {} : { maxPrice: c.maxPrice }),
    ...(c.minAmount === undefined ? {} : { minAmount: c.minAmount }),
    ...(c.state === undefined ? {} : { state: c.state }),
  };
  if (marketProblem(next, st.precisions()) !== null) return Rejection.InvalidMarket;
  if (c.fees !== undefined && (!validRate(c.fees.maker) || !validRate(c.fees.taker)))
    return Rejection.InvalidFeeRate;
  m.cfg.minPrice = next.minPrice;
  m.cfg.maxPrice = next.maxPrice;
  m.cfg.minAmount = next.minAmount;
  m.cfg.state = next.state;
  m.state = next.state;
  emitUpdated(tx, m);
  if (c.fees !== undefined) putRule(st, tx, { market: m.id, maker: c.fees.maker, taker: c.fees.taker });
  return null;
}
