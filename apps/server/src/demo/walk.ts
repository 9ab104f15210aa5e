import { DENSE } from './history.ts';

/**
 * How the demo bot's price moves and where it quotes, kept within the volatility of the history it continues
 * (history.ts): the chart must not turn from a smooth 90 days into 5-10 % swings per 5-minute candle.
 */

/** Millionths, the unit of the walk's moves and the spread. */
const PPM = 1_000_000n;

/** The bot's price is kept with this many extra digits, so moves smaller than a price tick add up. */
export const FINE = 1_000_000n;

/** Half the spread between the bot's best bid and ask: 3 basis points, at least one price tick. */
const HALF_SPREAD_PPM = 300n;

/** The bot's price keeps within this many percent of the reference price. */
const BAND_PERCENT = 25n;

function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = n;
  let y = (x + 1n) / 2n;
  while (y < x) {
    x = y;
    y = (x + n / x) / 2n;
  }
  return x;
}

/**
 * The largest move of one tick, in millionths of the price. The dense history moves up to
 * `DENSE.maxMoveBp` (uniformly) once every `DENSE.everyMinutes`; a walk that ticks every `intervalMs` has the same
 * variance per minute when its largest move is that one scaled by √(intervalMs / trade interval).
 */
export function maxMovePpm(intervalMs: number): bigint {
  const perTrade = BigInt(DENSE.maxMoveBp) * 100n;
  const tradeEveryMs = BigInt(DENSE.everyMinutes * 60_000);
  return isqrt((perTrade * perTrade * BigInt(Math.max(1, intervalMs))) / tradeEveryMs);
}

/** A price of the walk: price units times {@link FINE}. */
export interface WalkMarket {
  /** Where the walk is held back when it wanders off (the demo reference price), in price units. */
  reference: bigint;
}

/**
 * One tick of the walk: `fine` (price units × {@link FINE}) moved by `movePpm` millionths (drawn by the caller
 * in ±{@link maxMovePpm}), kept within the band around the reference price.
 */
export function walk(fine: bigint, movePpm: bigint, market: WalkMarket): bigint {
  let next = (fine * (PPM + movePpm)) / PPM;
  const low = (market.reference * FINE * (100n - BAND_PERCENT)) / 100n;
  const high = (market.reference * FINE * (100n + BAND_PERCENT)) / 100n;
  if (next < low) next = low;
  if (next > high) next = high;
  return next;
}

/** The price levels the bot quotes on each side, best first (price units). */
export interface Quotes {
  buys: bigint[];
  sells: bigint[];
}

/**
 * The bot's levels around `price` (price units): the best bid and ask a narrow spread away (where the taker
 * trades, so trades follow the walk), then further levels on the market's step grid, which stay put while the
 * price wanders inside a step (so a tick re-quotes the two best levels, not the whole book).
 */
export function quoteLevels(price: bigint, step: bigint, levels: number): Quotes {
  const half = (price * HALF_SPREAD_PPM) / PPM > 1n ? (price * HALF_SPREAD_PPM) / PPM : 1n;
  const bid = price - half;
  const ask = price + half;
  const buys = bid > 0n ? [bid] : [];
  const sells = [ask];
  let below = ((bid - 1n) / step) * step;
  let above = ((ask + step) / step) * step;
  for (let i = 1; i < levels; i++) {
    if (below > 0n) buys.push(below);
    sells.push(above);
    below -= step;
    above += step;
  }
  return { buys, sells };
}
