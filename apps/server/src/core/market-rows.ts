import type { Command, CommandResult, MarketConfig } from '@exchange/engine';
import { formatUnits } from '@exchange/shared';
import type { MarketInfo } from './engine-config.ts';
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
