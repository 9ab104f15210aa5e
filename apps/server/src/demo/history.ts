import type { Side } from '@exchange/engine';
import { DemoRandom } from './random.ts';

/** One trade of a demo market's past: when, at what price and volume (market units), and who took. */
export interface PastTrade {
  at: number;
  price: bigint;
  volume: bigint;
  takerSide: Side;
}

/** A market as the history needs it, in its own integer units (price and amount precision). */
export interface HistoryMarket {
  id: string;
  /** The price the history ends at: the reference price the demo book is built around. */
  mid: bigint;
  minPrice: bigint;
  minVolume: bigint;
  maxVolume: bigint;
}

/** How far back the demo history goes. */
export const HISTORY_DAYS = 90;

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/**
 * Older trades are sparse (enough for the day and week charts to have a body); the last two days are dense, so
 * the one-minute chart and the 24-hour ticker look like a live market. The price moves at most this many basis
 * points between two trades.
 */
const SPARSE = { everyMinutes: 30, maxMoveBp: 40 };
/** The dense last days; the demo bot's walk continues at this volatility (walk.ts). */
export const DENSE = { lastDays: 2, everyMinutes: 2, maxMoveBp: 12 };

/** The walk is pulled back once it strays this far from the reference price (percent below and above). */
const FLOOR_PERCENT = 75n;
const CEILING_PERCENT = 130n;

/** A drifting trend lasts this many trades before another is drawn. */
const REGIME_TRADES = 96;

/**
 * The past trades of a demo market over {@link HISTORY_DAYS} days before `end`, oldest first: a random walk
 * seeded by the market's name, so every install shows the same history (relative to its start). The walk is
 * drawn backwards from `market.mid`, so the last trade is at the reference price and the demo book around it
 * continues the chart. Integer arithmetic only.
 */
export function pastTrades(market: HistoryMarket, end: number): PastTrade[] {
  const random = new DemoRandom(`history:${market.id}`);
  const times: number[] = [];
  const denseFrom = end - DENSE.lastDays * DAY;
  for (let t = end - HISTORY_DAYS * DAY; t < end; ) {
    const every = (t < denseFrom ? SPARSE.everyMinutes : DENSE.everyMinutes) * MINUTE;
    // Jitter inside the slot keeps the trades in order while not falling on round minutes.
    times.push(t + random.int(0, Math.floor((every * 4) / 5)));
    t += every;
  }
  const prices: bigint[] = new Array(times.length);
  let price = market.mid;
  let drift = 0;
  for (let i = times.length - 1; i >= 0; i--) {
    prices[i] = price;
    const maxMove = (times[i] as number) < denseFrom ? SPARSE.maxMoveBp : DENSE.maxMoveBp;
    if (i % REGIME_TRADES === 0) drift = random.int(-Math.floor(maxMove / 10), Math.floor(maxMove / 10));
    let move = random.int(-maxMove, maxMove) + drift;
    // Walking backwards: the earlier price is the later one moved against the drawn change, so a rise (move > 0)
    // makes the earlier price lower. Too low a price is pulled up by a fall, and the reverse.
    if (price * 100n < market.mid * FLOOR_PERCENT) move = -Math.abs(move);
    if (price * 100n > market.mid * CEILING_PERCENT) move = Math.abs(move);
    price = (price * BigInt(10_000 - move)) / 10_000n;
    if (price < market.minPrice) price = market.minPrice;
  }
  return times.map((at, i) => ({
    at,
    price: prices[i] as bigint,
    volume: random.big(market.minVolume, market.maxVolume),
    takerSide: random.oneIn(2) ? 'buy' : 'sell',
  }));
}
