/**
 * What the order book shows beyond the raw levels (issue 32): levels grouped by a multiple of the price tick, the
 * mid price and spread between the best ask and bid, and the amount up to a level. All of it is exact: prices and
 * amounts are integer units at {@link SCALE} decimals, never floats.
 */
import { formatUnits } from '@exchange/shared';
import { SCALE, units } from '../../components/format.tsx';
import type { BookRow } from './book.ts';

/** How many ticks a grouping step may span: 1 (no grouping), 10, 100 and 1000 ticks. */
const GROUPING_MULTIPLES = [1n, 10n, 100n, 1000n];

/** The grouping steps a market offers, as decimal strings at its price precision ("0.00001", "0.0001", …). */
export function groupingSteps(pricePrecision: number): string[] {
  const tick = 10n ** BigInt(SCALE - pricePrecision);
  return GROUPING_MULTIPLES.map((m) => formatUnits(tick * m, SCALE, 0));
}

/**
 * The best `depth` levels of a side grouped into buckets of `step` (a decimal string), with running totals. An
 * ask is put in the bucket of its price rounded up and a bid in the one rounded down, as exchanges do, so a grouped
 * price is never better than the levels it holds. Amounts are summed exactly; prices come back at 18 decimals like
 * the book's own keys.
 */
export function groupedLevels(
  side: ReadonlyMap<string, string>,
  ascending: boolean,
  step: string,
  depth: number,
): BookRow[] {
  const size = units(step);
  const buckets = new Map<bigint, bigint>();
  for (const [price, amount] of side) {
    const p = units(price);
    let bucket = size > 0n ? p / size : p;
    // Integer division rounds down; an ask that is not on a bucket's edge belongs to the next one up.
    if (size > 0n && ascending && p % size !== 0n) bucket += 1n;
    const key = size > 0n ? bucket * size : p;
    buckets.set(key, (buckets.get(key) ?? 0n) + units(amount));
  }
  const sorted = [...buckets.entries()].sort(([a], [b]) => (a === b ? 0 : a > b === ascending ? 1 : -1));
  let total = 0n;
  return sorted.slice(0, depth).map(([price, amount]) => {
    total += amount;
    return { price: formatUnits(price, SCALE, 0), amount: formatUnits(amount, SCALE, 0), total };
  });
}

/** The mid price and the spread of a book, as decimal strings, and the spread as a share of the mid. */
export interface Spread {
  /** (best ask + best bid) / 2, exact: one more decimal than the prices at most. */
  mid: string;
  /** best ask − best bid. */
  spread: string;
  /** spread / mid in percent, two decimals, rounded half up ("0.25"). */
  percent: string;
}

/** Mid and spread of the best ask and bid; undefined when a side is empty. */
export function bookSpread(bestAsk: string | undefined, bestBid: string | undefined): Spread | undefined {
  if (bestAsk === undefined || bestBid === undefined) return undefined;
  const ask = units(bestAsk);
  const bid = units(bestBid);
  // One decimal more than SCALE keeps the half of an odd sum exact.
  const mid = (ask + bid) * 5n;
  const spread = ask - bid;
  // Percent with two decimals: spread × 10000 / mid, mid counted at SCALE + 1 decimals, rounded half up.
  const basisTimesTen = mid > 0n ? (spread * 10n * 10_000n * 10n) / mid : 0n;
  const percent = (basisTimesTen + (basisTimesTen >= 0n ? 5n : -5n)) / 10n;
  return {
    mid: formatUnits(mid, SCALE + 1, 0),
    spread: formatUnits(spread, SCALE, 0),
    percent: formatUnits(percent, 2, 2),
  };
}

/** The amount of all levels from the best one up to `row` (its running total), cut to `decimals` decimals. */
export function amountUpTo(row: BookRow, decimals: number): string {
  const cut = 10n ** BigInt(SCALE - Math.min(decimals, SCALE));
  return formatUnits((row.total / cut) * cut, SCALE, 0);
}

/** A level picked in the order book: its price, and with Shift the amount up to it, for the order form. */
export interface BookPick {
  price: string;
  amount?: string;
  /** The side of the book it was picked from: an ask is bought, a bid sold. */
  side?: 'ask' | 'bid';
}
