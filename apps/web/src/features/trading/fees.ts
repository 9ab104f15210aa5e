import { DEFAULT_MAKER_FEE, formatUnits, type OrdType } from '@exchange/shared';
import { units } from '../../components/format.tsx';

/** A row of `GET /public/trading_fees`: a market (or `any`) and a trading level (`group`, or `any`). */
export interface FeeRow {
  market_id: string;
  group: string;
  maker: string;
  taker: string;
}

/** Maker and taker rates as decimal strings (0.001 is 0.1 %). */
export interface FeeRates {
  maker: string;
  taker: string;
}

/** The taker rate when the schedule has no rows at all: the engine's default, the maker's (0.1 %). */
const DEFAULT_TAKER_FEE = DEFAULT_MAKER_FEE;

/**
 * The rates the engine charges an account of `level` on `market`, resolved as the engine resolves them: the
 * market's own row (any level) over the default row, and a level's row (the market's over `any`) over both. No
 * call sets an account's trading level yet, so every account trades at level 0.
 */
export function userFeeRates(rows: readonly FeeRow[], market: string, level = 0): FeeRates {
  const pick = (m: string, g: string) => rows.find((r) => r.market_id === m && r.group === g);
  const found =
    pick(market, String(level)) ?? pick('any', String(level)) ?? pick(market, 'any') ?? pick('any', 'any');
  return found
    ? { maker: found.maker, taker: found.taker }
    : { maker: DEFAULT_MAKER_FEE, taker: DEFAULT_TAKER_FEE };
}

/** A rate as parts per million, as the engine keeps it ("0.001" → 1000). */
export const ratePpm = (rate: string): bigint => units(rate, 6);

/** A rate as a percentage for people ("0.001" → "0.1%"). */
export const ratePercent = (rate: string): string => `${formatUnits(ratePpm(rate), 4)}%`;

/** The engine's fee of `x` units: ceil(x · rate / 10^6), so the receiver's side is rounded down. */
export function feeUnits(x: bigint, ppm: bigint): bigint {
  return ppm === 0n ? 0n : (x * ppm + 999_999n) / 1_000_000n;
}

/**
 * Whether an order takes liquidity when it arrives: market orders and stop-market orders always do; a limit
 * (or stop-limit) buy at or above the best ask, or sell at or below the best bid, does too. Anything else
 * rests in the book and is charged the maker rate.
 */
export function crosses(
  side: 'buy' | 'sell',
  ordType: OrdType,
  price: string,
  best: { ask?: string; bid?: string },
): boolean {
  if (ordType === 'market' || ordType === 'stop_loss_order') return true;
  const p = units(price);
  if (p <= 0n) return false;
  const ask = units(best.ask);
  const bid = units(best.bid);
  return side === 'buy' ? ask > 0n && p >= ask : bid > 0n && p <= bid;
}

/** What the preview shows: the fee as the server will charge it, in the currency it is taken in, and why. */
export interface FeePreview {
  /** The fee, formatted at the currency's precision (rounded up to its smallest unit, as the server does). */
  amount: string;
  currency: string;
  role: 'maker' | 'taker';
  /** The rate applied, a decimal string. */
  rate: string;
}

/**
 * The fee of an order as the engine charges it on one fill: a buyer pays in the base currency on the amount
 * bought, a seller in the quote currency on the total, each rounded up to the currency's smallest unit; the
 * taker rate when the order crosses the book, the maker rate when it rests.
 */
export function feePreview(input: {
  side: 'buy' | 'sell';
  ordType: OrdType;
  /** The limit price (or stop price, or last price for a market order), for the total and for crossing. */
  price: string;
  amount: string;
  /** The total in quote, as the form shows it. */
  total: string;
  best: { ask?: string; bid?: string };
  rates: FeeRates;
  base: { id: string; precision: number };
  quote: { id: string; precision: number };
}): FeePreview {
  const role = crosses(input.side, input.ordType, input.price, input.best) ? 'taker' : 'maker';
  const rate = input.rates[role];
  const [value, currency] = input.side === 'buy' ? [input.amount, input.base] : [input.total, input.quote];
  const fee = feeUnits(units(value, currency.precision), ratePpm(rate));
  return { amount: formatUnits(fee, currency.precision), currency: currency.id.toUpperCase(), role, rate };
}
