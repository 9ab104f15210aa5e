import type { Command, CommandResult, MarketConfig } from '@exchange/engine';
import { formatUnits } from '@exchange/shared';
import type { MarketInfo } from './market-info.ts';
import type { Statement, Units } from './persistence.ts';

/** The engine's "no upper price bound"; the `markets` table says 0 for it. */
export const NO_MAX_PRICE = 10n ** 30n;

/** True for the commands that change markets or fees: the only ones whose results the helpers below read. */
export function changesMarkets(c: Command): boolean {
  return (
    c.type === 'AddMarket' ||
    c.type === 'UpdateMarket' ||
    c.type === 'SetMarketState' ||
    c.type === 'SetFeeRule'
  );
}

/** Largest integer part a `numeric(36, 18)` column holds, plus one. */
const NUMERIC_LIMIT = 10n ** 18n;

/**
 * Why the reference tables could not store what this market or fee command would make the engine run with, or
 * null. The sequencer refuses such a command before the engine sees it: a batch whose rows the database rejects
 * stops the core, and the engine must never run with a market that a restart could not load. (The admin service
 * checks all of this first; this is the core's own guard for any other caller.)
 */
export function unstorableMarketCommand(c: Command): string | null {
  const tooBig = (v: unknown, precision: number) =>
    typeof v === 'bigint' && v / 10n ** BigInt(precision) >= NUMERIC_LIMIT;
  const rate = (r: { maker: unknown; taker: unknown } | undefined) =>
    r !== undefined && (r.maker === 1_000_000n || r.taker === 1_000_000n);
  if (c.type === 'SetFeeRule') return rate(c.rule) ? 'a fee rate of 1 (the table takes rates below 1)' : null;
  if (c.type === 'UpdateMarket' && rate(c.fees)) return 'a fee rate of 1 (the table takes rates below 1)';
  if (c.type !== 'AddMarket') return null;
  const m = c.market;
  if (typeof m !== 'object' || m === null) return null; // the engine refuses it
  if (!/^[a-z0-9]{4,20}$/.test(String(m.id)))
    return 'a market id other than 4 to 20 lowercase letters and digits';
  if (m.pricePrecision > 18 || m.amountPrecision > 18) return 'a precision above 18';
  if (tooBig(m.minPrice, m.pricePrecision) || tooBig(m.minAmount, m.amountPrecision))
    return 'a bound beyond numeric(36, 18)';
  if (m.maxPrice !== NO_MAX_PRICE && tooBig(m.maxPrice, m.pricePrecision))
    return 'a bound beyond numeric(36, 18)';
  return rate(c.fees) ? 'a fee rate of 1 (the table takes rates below 1)' : null;
}

/** What the edges know of a market (decimal minimum, currency precisions) from the engine's config. */
export function marketInfo(m: MarketConfig, precisions: ReadonlyMap<string, number>): MarketInfo {
  return {
    id: m.id,
    base: m.base,
    quote: m.quote,
    pricePrecision: m.pricePrecision,
    amountPrecision: m.amountPrecision,
    minAmount: formatUnits(m.minAmount, m.amountPrecision),
    basePrecision: precisions.get(m.base) ?? 0,
    quotePrecision: precisions.get(m.quote) ?? 0,
  };
}

/**
 * Keeps the market map the edges and the batch writer share in step with an applied command: a market added or
 * changed in the engine is known by the next statement that formats its orders, and by the next request that
 * places one. Called as each command is applied (the active core) or replayed (a replica).
 */
export function followMarkets(units: Units, result: CommandResult): void {
  if (!result.ok) return;
  for (const e of result.events)
    if (e.type === 'MarketAdded' || e.type === 'MarketUpdated')
      units.markets.set(e.market.id, marketInfo(e.market, units.precisions));
}

/**
 * The reference-table writes of a batch's market and fee events, in the batch's own transaction: what the
 * engine runs with and what a restart loads from `markets` and `trading_fees` cannot differ.
 */
export function marketStatements(results: readonly CommandResult[]): Statement[] {
  const out: Statement[] = [];
  for (const result of results) {
    if (!result.ok) continue;
    for (const e of result.events) {
      if (e.type === 'MarketAdded') out.push(insertMarket(e.market));
      else if (e.type === 'MarketUpdated') out.push(updateMarket(e.market));
      else if (e.type === 'FeeRuleSet') {
        const rate = (ppm: bigint) => formatUnits(ppm, 6);
        out.push({
          text: `insert into trading_fees (market_id, "group", maker, taker) values ($1, $2, $3, $4)
                 on conflict (market_id, "group") do update set maker = excluded.maker, taker = excluded.taker`,
          values: [
            e.rule.market ?? 'any',
            e.rule.level === undefined ? 'any' : String(e.rule.level),
            rate(e.rule.maker),
            rate(e.rule.taker),
          ],
          rows: 1,
        });
      }
    }
  }
  return out;
}

function bounds(m: MarketConfig): string[] {
  return [
    formatUnits(m.minPrice, m.pricePrecision),
    m.maxPrice >= NO_MAX_PRICE ? '0' : formatUnits(m.maxPrice, m.pricePrecision),
    formatUnits(m.minAmount, m.amountPrecision),
  ];
}

function insertMarket(m: MarketConfig): Statement {
  return {
    text: `insert into markets (id, base_unit, quote_unit, price_precision, amount_precision, min_price, max_price,
             min_amount, state, position)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, (select coalesce(max(position), 0) + 1 from markets))`,
    values: [m.id, m.base, m.quote, m.pricePrecision, m.amountPrecision, ...bounds(m), m.state],
    rows: 1,
  };
}

function updateMarket(m: MarketConfig): Statement {
  return {
    // The engine knows no `hidden`: a hidden market it calls disabled stays hidden.
    text: `update markets set min_price = $2, max_price = $3, min_amount = $4, updated_at = now(),
             state = case when $5 = 'disabled' and state = 'hidden' then 'hidden' else $5 end
           where id = $1`,
    values: [m.id, ...bounds(m), m.state],
    rows: 1,
  };
}
