/**
 * What a balance is worth in USDT on the trading screen (issue 32), from the markets' last prices: exact integer
 * units at {@link SCALE} decimals, rounded only when shown.
 */
import { formatUnits } from '@exchange/shared';
import { fixed, rounded, SCALE, units } from '../../components/format.tsx';
import type { Market, Tickers } from './api.ts';

const ONE = 10n ** BigInt(SCALE);
const USDT = 'usdt';

type Pair = Pick<Market, 'id' | 'base_unit' | 'quote_unit'>;

/** The last price of `from` in `to` from one market either way round, as units; undefined without a trade. */
function direct(from: string, to: string, markets: readonly Pair[], tickers: Tickers): bigint | undefined {
  for (const m of markets) {
    const last = units(tickers[m.id]?.ticker.last);
    if (last <= 0n) continue;
    if (m.base_unit === from && m.quote_unit === to) return last;
    // The market quotes the other way: 1 / last, cut (never rounded up) at SCALE decimals.
    if (m.base_unit === to && m.quote_unit === from) return (ONE * ONE) / last;
  }
  return undefined;
}

/**
 * The price of one `currency` in USDT: 1 for USDT, else a market with USDT, else through one other currency
 * (ETH → BTC → USDT); undefined when no market has traded on such a path.
 */
export function usdtPrice(
  currency: string,
  markets: readonly Pair[],
  tickers: Tickers | undefined,
): bigint | undefined {
  if (currency === USDT) return ONE;
  if (!tickers) return undefined;
  const straight = direct(currency, USDT, markets, tickers);
  if (straight !== undefined) return straight;
  const neighbours = new Set(
    markets.flatMap((m) =>
      m.base_unit === currency ? [m.quote_unit] : m.quote_unit === currency ? [m.base_unit] : [],
    ),
  );
  for (const via of neighbours) {
    const first = direct(currency, via, markets, tickers);
    const second = first === undefined ? undefined : direct(via, USDT, markets, tickers);
    if (first !== undefined && second !== undefined) return (first * second) / ONE;
  }
  return undefined;
}

/** `amount` (a decimal string) × `price` (units), rounded half up to 2 decimals for display; undefined without a price. */
export function usdtValue(amount: string, price: bigint | undefined): string | undefined {
  if (price === undefined) return undefined;
  return fixed(rounded(formatUnits((units(amount) * price) / ONE, SCALE), 2), 2, 2);
}
