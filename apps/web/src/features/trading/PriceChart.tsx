import {
  Box,
  Group,
  Paper,
  SegmentedControl,
  Text,
  useComputedColorScheme,
  VisuallyHidden,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import {
  type CandlestickData,
  CandlestickSeries,
  createChart,
  type IChartApi,
  type ISeriesApi,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { useRanger } from '../../api/ranger.ts';

/** Chart periods and their k-line minutes (spec §7); default 5m (spec §9). */
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
/** Chart time frames (spec §9) and how far back each one reaches, in seconds. */
export const TIME_FRAMES: Record<string, number> = {
  '5y': 5 * 365 * DAY,
  '1y': 365 * DAY,
  '6m': 182 * DAY,
  '3m': 91 * DAY,
  '1m': 30 * DAY,
  '5d': 5 * DAY,
  '1d': DAY,
};
/** The most candles one k-line call returns (the server's cap). */
const MAX_CANDLES = 10_000;

/** The library draws UTC: a time is shifted by the local offset so it reads in the user's time zone. */
const local = (seconds: number) => seconds - new Date(seconds * 1000).getTimezoneOffset() * 60;

/** A candle as Peatio sends it (REST and stream): `[t, o, h, l, c, v]`, numbers. */
type Kline = [number, number, number, number, number, number];

/** Plotted in the user's time zone: the library draws UTC, so times are shifted by the local offset. */
function toCandle(k: Kline): CandlestickData<UTCTimestamp> {
  // K-lines are the one place the server sends numbers (as Peatio does); amounts stay strings elsewhere.
  return {
    time: local(k[0]) as UTCTimestamp,
    open: Number(k[1]),
    high: Number(k[2]),
    low: Number(k[3]),
    close: Number(k[4]),
  };
}

const COLORS = {
  dark: { background: '#1a1b1e', text: '#c1c2c5', grid: '#2c2e33' },
  light: { background: '#ffffff', text: '#212529', grid: '#e9ecef' },
};

/** Candlesticks of a market: history from the k-line call, then live from `<m>.kline-<period>`. */
export function PriceChart({ market, pricePrecision }: { market: string; pricePrecision: number }) {
  const { t } = useTranslation();
  const scheme = useComputedColorScheme('dark');
  const [period, setPeriod] = useState(DEFAULT_PERIOD);
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi | null>(null);
  const series = useRef<ISeriesApi<'Candlestick'> | null>(null);
  /** What the chart shows, for the tests and its text summary: candles, first open, last close and time. */
  const [last, setLast] = useState({ count: 0, open: '', close: '', time: 0 });
  /** The chosen time frame and the range it asked for (epoch seconds); none: the latest 300 candles. */
  const [range, setRange] = useState<{ frame: string; from: number; to: number } | null>(null);

  const history = useQuery({
    queryKey: ['trading', 'kline', market, period, range],
    queryFn: () =>
      api<Kline[]>('peatio', `/public/markets/${market}/k-line`, {
        query: range
          ? { period: PERIODS[period], time_from: range.from, time_to: range.to, limit: MAX_CANDLES }
          : { period: PERIODS[period], limit: 300 },
      }),
    staleTime: 0,
  });

  const chooseFrame = (frame: string) => {
    const to = Math.floor(Date.now() / 1000);
    setRange({ frame, from: to - (TIME_FRAMES[frame] ?? DAY), to });
  };

  useEffect(() => {
    if (!box.current) return;
    const created = createChart(box.current, { autoSize: true });
    chart.current = created;
    series.current = created.addSeries(CandlestickSeries, {
      upColor: '#12b886',
      downColor: '#fa5252',
      borderVisible: false,
      wickUpColor: '#12b886',
      wickDownColor: '#fa5252',
    });
    return () => {
      created.remove();
      chart.current = null;
      series.current = null;
    };
  }, []);

  useEffect(() => {
    const c = COLORS[scheme];
    chart.current?.applyOptions({
      layout: { background: { color: c.background }, textColor: c.text },
      grid: { vertLines: { color: c.grid }, horzLines: { color: c.grid } },
      timeScale: { timeVisible: true },
    });
  }, [scheme]);

  useEffect(() => {
    series.current?.applyOptions({
      priceFormat: { type: 'price', precision: pricePrecision, minMove: 10 ** -pricePrecision },
    });
  }, [pricePrecision]);

  useEffect(() => {
    if (!history.data || !series.current) return;
    series.current.setData(history.data.map(toCandle));
    const scale = chart.current?.timeScale();
    if (range && history.data.length > 0)
      scale?.setVisibleRange({
        from: local(range.from) as UTCTimestamp,
        to: local(range.to) as UTCTimestamp,
      });
    else scale?.fitContent();
    const end = history.data.at(-1);
    setLast({
      count: history.data.length,
      open: history.data[0] ? String(history.data[0][1]) : '',
      close: end ? String(end[4]) : '',
      time: end?.[0] ?? 0,
    });
  }, [history.data, range]);

  useRanger('public', [`${market}.kline-${period}`], (payload) => {
    const k = payload as Kline;
    if (!Array.isArray(k) || !series.current) return;
    series.current.update(toCandle(k));
    setLast((prev) => ({
      count: k[0] > prev.time ? prev.count + 1 : prev.count,
      open: prev.open || String(k[1]),
      close: String(k[4]),
      time: Math.max(prev.time, k[0]),
    }));
  });

  return (
    <Paper withBorder p="xs">
      <Group justify="space-between" mb={4}>
        <SegmentedControl
          size="xs"
          value={period}
          onChange={setPeriod}
          data={Object.keys(PERIODS)}
          aria-label={t('trading.chart.period')}
          data-testid="chart-period"
        />
        <SegmentedControl
          size="xs"
          value={range?.frame ?? ''}
          onChange={chooseFrame}
          data={Object.keys(TIME_FRAMES)}
          aria-label={t('trading.chart.timeFrame')}
          data-testid="chart-time-frame"
        />
        {(history.isError || (history.isSuccess && last.count === 0)) && (
          <Text size="xs" c="dimmed">
            {t('trading.chart.noData')}
          </Text>
        )}
      </Group>
      <VisuallyHidden id={`chart-summary-${market}`} data-testid="chart-summary">
        {chartSummary(t, last, pricePrecision)}
      </VisuallyHidden>
      <Box
        ref={box}
        h={360}
        role="figure"
        aria-label={t('trading.chart.label', { period })}
        aria-describedby={`chart-summary-${market}`}
        data-testid="price-chart"
        data-candles={last.count}
        data-last-close={last.close}
        data-time-from={range?.from}
      />
    </Paper>
  );
}

/**
 * The chart's text alternative (WCAG 1.1.1): the last price and its change since the first candle shown, e.g.
 * "Last price 0.05000, up 2.04 % over the chart (from 0.04900)".
 */
export function chartSummary(
  t: TFunction,
  last: { count: number; open: string; close: string },
  precision: number,
): string {
  const open = Number(last.open);
  const close = Number(last.close);
  if (last.count === 0 || !Number.isFinite(open) || !Number.isFinite(close) || open <= 0)
    return t('trading.chart.noData');
  const change = ((close - open) / open) * 100;
  const key =
    change > 0
      ? 'trading.chart.summaryUp'
      : change < 0
        ? 'trading.chart.summaryDown'
        : 'trading.chart.summaryFlat';
  return t(key, {
    last: close.toFixed(precision),
    from: open.toFixed(precision),
    change: Math.abs(change).toFixed(2),
  });
}

/** Shown in the chart area for an unknown market. */
export function SymbolNotFound() {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="xs" h={400} style={{ display: 'grid', placeItems: 'center' }}>
      <Text c="dimmed">{t('trading.chart.symbolNotFound')}</Text>
    </Paper>
  );
}
