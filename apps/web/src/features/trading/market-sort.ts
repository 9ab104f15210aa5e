/**
 * The market list's order (issue 32): favourites first, then by the chosen column, and the compact 24-hour volume
 * it shows. Exact: figures are compared as integer units, never as floats.
 */
import { formatUnits } from '@exchange/shared';
import { SCALE, units } from '../../components/format.tsx';
import type { Market, Tickers } from './api.ts';
import { usdtPrice } from './usdt-value.ts';

export type MarketSortKey = 'pair' | 'price' | 'change' | 'volume';
export interface MarketSort {
  key: MarketSortKey;
  ascending: boolean;
}

/** A change as the ticker writes it ("+20.00%", "-1.5%") in units; 0 when unreadable. */
function changeUnits(text: string | undefined): bigint {
  const trimmed = (text ?? '').replace('%', '').trim();
  const negative = trimmed.startsWith('-');
  const magnitude = units(trimmed.replace(/^[+-]/, ''));
  return negative ? -magnitude : magnitude;
}

/**
 * What the volume column is sorted by: the 24-hour traded total in USDT (markets quote in different currencies),
 * or in the market's own quote currency when it has no USDT price.
 */
function volumeUnits(market: Market, tickers: Tickers | undefined, markets: readonly Market[]): bigint {
  const quoted = units(tickers?.[market.id]?.ticker.amount);
  const price = usdtPrice(market.quote_unit, markets, tickers);
  return price === undefined ? quoted : (quoted * price) / 10n ** BigInt(SCALE);
}

const compare = (a: bigint, b: bigint) => (a === b ? 0 : a < b ? -1 : 1);

/** The markets in the list's order: favourites first (each group sorted), then the others. */
export function sortMarkets(
  markets: readonly Market[],
  tickers: Tickers | undefined,
  favourites: readonly string[],
  sort: MarketSort,
): Market[] {
  const key = (m: Market): bigint | string => {
    const ticker = tickers?.[m.id]?.ticker;
    if (sort.key === 'price') return units(ticker?.last);
    if (sort.key === 'change') return changeUnits(ticker?.price_change_percent);
    if (sort.key === 'volume') return volumeUnits(m, tickers, markets);
    return `${m.base_unit}/${m.quote_unit}`;
  };
  const byColumn = (a: Market, b: Market) => {
    const x = key(a);
    const y = key(b);
    const order =
      typeof x === 'string' || typeof y === 'string' ? String(x).localeCompare(String(y)) : compare(x, y);
    return sort.ascending ? order : -order;
  };
  const favourite = (m: Market) => (favourites.includes(m.id) ? 0 : 1);
  return [...markets].sort((a, b) => favourite(a) - favourite(b) || byColumn(a, b));
}

const SUFFIXES: [bigint, string][] = [
  [10n ** 9n, 'B'],
  [10n ** 6n, 'M'],
  [10n ** 3n, 'K'],
];

/** A volume for a narrow column: 2 decimals, thousands as K, millions as M, billions as B (cut, not rounded up). */
export function compactVolume(text: string | undefined): string {
  const value = units(text);
  const hundredths = 10n ** BigInt(SCALE - 2);
  for (const [size, suffix] of SUFFIXES) {
    if (value >= size * 10n ** BigInt(SCALE))
      return `${formatUnits(value / size / hundredths, 2, 2)}${suffix}`;
  }
  return formatUnits(value / hundredths, 2, 2);
}
