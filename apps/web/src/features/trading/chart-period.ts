/** Chart periods, time frames and the candle size a frame calls for (issue 32), free of React for the tests. */
import { fixed } from '../../components/format.tsx';

/** Chart periods and their k-line minutes (docs/trading.md#stream); default 5m (docs/trading.md#constants). */
export const PERIODS: Record<string, number> = {
  '1m': 1,
  '5m': 5,
  '15m': 15,
  '30m': 30,
  '1h': 60,
  '2h': 120,
  '4h': 240,
  '6h': 360,
  '12h': 720,
  '1d': 1440,
  '3d': 4320,
  '1w': 10080,
};
export const DEFAULT_PERIOD = '5m';

const DAY = 86_400;
/** Chart time frames (docs/trading.md#constants) and how far back each one reaches, in seconds. */
export const TIME_FRAMES: Record<string, number> = {
  '5y': 5 * 365 * DAY,
  '1y': 365 * DAY,
  '6m': 182 * DAY,
  '3m': 91 * DAY,
  '1m': 30 * DAY,
  '5d': 5 * DAY,
  '1d': DAY,
};

/**
 * At most this many candles in a time frame: more are too thin to read on a chart some 700 pixels wide (about
 * 3.5 pixels each), far fewer say little (a day of weekly candles is one candle).
 */
export const MAX_FRAME_CANDLES = 200;

/**
 * The candle size for a time frame: the shortest period that fits the frame in at most {@link MAX_FRAME_CANDLES}
 * candles (1d → 15m, 5d → 1h, 1m → 4h, 3m → 12h, 6m → 1d, 1y → 3d), the longest period for frames beyond that.
 */
export function periodForFrame(frame: string): string {
  const seconds = TIME_FRAMES[frame] ?? DAY;
  const entries = Object.entries(PERIODS);
  const fitting = entries.find(([, minutes]) => seconds / (minutes * 60) <= MAX_FRAME_CANDLES);
  return (fitting ?? entries[entries.length - 1] ?? [DEFAULT_PERIOD])[0];
}

/** A candle as Peatio sends it (REST and stream): `[t, o, h, l, c, v]`, numbers. */
export type Kline = [number, number, number, number, number, number];

/** A candle's figures as text for the readout over the chart: prices and volume at the market's precisions. */
export interface CandleReadout {
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
}

/**
 * The readout of a candle. K-lines are the one place the server sends numbers (as Peatio does); each is read
 * back through its shortest decimal text and cut with string arithmetic, never rounded as a float.
 */
export function candleReadout(k: Kline, pricePrecision: number, amountPrecision: number): CandleReadout {
  const price = (n: number) => fixed(decimalText(n), pricePrecision, pricePrecision);
  return {
    open: price(k[1]),
    high: price(k[2]),
    low: price(k[3]),
    close: price(k[4]),
    volume: fixed(decimalText(k[5]), amountPrecision, amountPrecision),
  };
}

/** A number's decimal text without an exponent (1e-7 → "0.0000001"). */
function decimalText(n: number): string {
  if (!Number.isFinite(n)) return '0';
  const text = String(n);
  if (!/e/i.test(text)) return text;
  return n.toFixed(20).replace(/\.?0+$/, '');
}
