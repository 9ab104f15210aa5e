import type pg from 'pg';
import { tradeCandles } from './repository.ts';

/** K-line periods in minutes and their stream suffixes (docs/trading.md#stream). */
export const KLINE_PERIODS: Record<number, string> = {
  1: '1m',
  5: '5m',
  15: '15m',
  30: '30m',
  60: '1h',
  120: '2h',
  240: '4h',
  360: '6h',
  720: '12h',
  1440: '1d',
  4320: '3d',
  10080: '1w',
};

/** One candle: bucket start (epoch seconds), open, high, low, close, volume (decimal strings, exact). */
export type Candle = [number, string, string, string, string, string];

/**
 * A candle on the wire, REST and stream alike: `[t, o, h, l, c, v]`, all numbers as Peatio sends them (what
 * charting clients expect). The only place where amounts leave as numbers; everywhere else they are strings.
 */
export type WireCandle = [number, number, number, number, number, number];

/** The wire form of a candle (see {@link WireCandle}). */
export function wireCandle(c: Candle): WireCandle {
  return [c[0], Number(c[1]), Number(c[2]), Number(c[3]), Number(c[4]), Number(c[5])];
}

/**
 * Candles for a market and period built from its trades, oldest first. Buckets are aligned to the epoch;
 * `time_from`/`time_to` are epoch seconds and bound the candle's start, as Peatio's k-line does
 * (`time_from <= t <= time_to`): a bucket that began before `time_from` would be a partial candle, and one
 * that begins after `time_to` is outside the range asked for. At most `limit` candles, the latest ones when
 * no `time_from`.
 */
export async function queryKlines(
  db: pg.Pool,
  market: string,
  periodMinutes: number,
  from: number | undefined,
  to: number | undefined,
  limit: number,
): Promise<Candle[]> {
  const rows = await tradeCandles(db, market, periodMinutes * 60, from, to, limit);
  const candles: Candle[] = rows.map((r) => [
    Number(r.bucket),
    trim(r.o),
    trim(r.h),
    trim(r.l),
    trim(r.c),
    trim(r.v),
  ]);
  return from === undefined ? candles.reverse() : candles;
}

/** Trailing zeros off a numeric string ("0.050000" -> "0.05"). */
export function trim(value: string): string {
  return value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value;
}
