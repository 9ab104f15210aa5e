import { Box, Group, Text, useComputedColorScheme, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  type CandlestickData,
  CandlestickSeries,
  createChart,
  type HistogramData,
  HistogramSeries,
  type IChartApi,
  type ISeriesApi,
  type MouseEventParams,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { useRanger } from '../../api/ranger.ts';
import type { Market } from './api.ts';
import { candleReadout, type Kline, PERIODS } from './chart-period.ts';
import { CHART_COLORS, chartSummary, DOWN_COLOR, UP_COLOR } from './chart-theme.ts';

/** The most candles one k-line call returns (the server's cap). */
const MAX_CANDLES = 10_000;
/** Candles loaded without a time frame: the latest ones. */
const LATEST_CANDLES = 300;
/** Pixels per candle without a time frame: wide enough to read each one (the default view shows the latest). */
const BAR_SPACING = 8;

/** The library draws UTC: a time is shifted by the local offset so it reads in the user's time zone. */
const local = (seconds: number) => seconds - new Date(seconds * 1000).getTimezoneOffset() * 60;

/** Plotted in the user's time zone. K-lines are the one place the server sends numbers (as Peatio does). */
function toCandle(k: Kline): CandlestickData<UTCTimestamp> {
  return { time: local(k[0]) as UTCTimestamp, open: k[1], high: k[2], low: k[3], close: k[4] };
}

function toVolume(k: Kline): HistogramData<UTCTimestamp> {
  return { time: local(k[0]) as UTCTimestamp, value: k[5], color: k[4] >= k[1] ? UP_COLOR : DOWN_COLOR };
}

/** A time frame's range in epoch seconds; none: the latest candles. */
export interface ChartRange {
  frame: string;
  from: number;
  to: number;
}

/**
 * Candlesticks with a volume pane under them: history from the k-line call, then live from
 * `<m>.kline-<period>`. Over the chart, the open, high, low, close and volume of the candle under the pointer
 * (of the latest one otherwise).
 */
export function CandleChart({
  market,
  period,
  range,
  height,
}: {
  market: Market;
  period: string;
  range: ChartRange | null;
  height: number;
}) {
  const { t } = useTranslation();
  const scheme = useComputedColorScheme('dark');
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi | null>(null);
  const candles = useRef<ISeriesApi<'Candlestick'> | null>(null);
  const volumes = useRef<ISeriesApi<'Histogram'> | null>(null);
  /** Each plotted candle as the server sent it, by plotted time, for the readout. */
  const byTime = useRef(new Map<number, Kline>());
  /** What the chart shows, for the tests and its text summary: candles, first open, last close and time. */
  const [last, setLast] = useState({ count: 0, open: '', close: '', time: 0 });
  const [latest, setLatest] = useState<Kline>();
  const [hovered, setHovered] = useState<Kline>();
  const pp = market.price_precision;

  const history = useQuery({
    queryKey: ['trading', 'kline', market.id, period, range],
    queryFn: () =>
      api<Kline[]>('peatio', `/public/markets/${market.id}/k-line`, {
        query: range
          ? { period: PERIODS[period], time_from: range.from, time_to: range.to, limit: MAX_CANDLES }
          : { period: PERIODS[period], limit: LATEST_CANDLES },
      }),
    staleTime: 0,
  });

  useEffect(() => {
    if (!box.current) return;
    const created = createChart(box.current, {
      autoSize: true,
      timeScale: { timeVisible: true, barSpacing: BAR_SPACING, rightOffset: 3 },
    });
    chart.current = created;
    candles.current = created.addSeries(CandlestickSeries, {
      upColor: UP_COLOR,
      downColor: DOWN_COLOR,
      borderVisible: false,
      wickUpColor: UP_COLOR,
      wickDownColor: DOWN_COLOR,
    });
    // The volume pane: a quarter of the height, its own scale.
    volumes.current = created.addSeries(
      HistogramSeries,
      { priceFormat: { type: 'volume' }, priceLineVisible: false, lastValueVisible: false },
      1,
    );
    created.panes()[1]?.setStretchFactor(0.3);
    const onMove = (param: MouseEventParams<Time>) => {
      const time = typeof param.time === 'number' ? param.time : undefined;
      setHovered(time === undefined ? undefined : byTime.current.get(time));
    };
    created.subscribeCrosshairMove(onMove);
    return () => {
      created.unsubscribeCrosshairMove(onMove);
      created.remove();
      chart.current = null;
      candles.current = null;
      volumes.current = null;
    };
  }, []);

  useEffect(() => {
    const c = CHART_COLORS[scheme];
    chart.current?.applyOptions({
      layout: { background: { color: c.background }, textColor: c.text, panes: { separatorColor: c.grid } },
      grid: { vertLines: { color: c.grid }, horzLines: { color: c.grid } },
    });
  }, [scheme]);

  useEffect(() => {
    candles.current?.applyOptions({ priceFormat: { type: 'price', precision: pp, minMove: 10 ** -pp } });
  }, [pp]);

  useEffect(() => {
    if (!history.data || !candles.current) return;
    byTime.current = new Map(history.data.map((k) => [local(k[0]), k]));
    candles.current.setData(history.data.map(toCandle));
    volumes.current?.setData(history.data.map(toVolume));
    const scale = chart.current?.timeScale();
    if (range && history.data.length > 0)
      scale?.setVisibleRange({
        from: local(range.from) as UTCTimestamp,
        to: local(range.to) as UTCTimestamp,
      });
    else {
      // The latest candles at a readable width, not all of them squeezed into specks.
      scale?.applyOptions({ barSpacing: BAR_SPACING });
      scale?.scrollToRealTime();
    }
    const end = history.data.at(-1);
    setLatest(end);
    setLast({
      count: history.data.length,
      open: history.data[0] ? String(history.data[0][1]) : '',
      close: end ? String(end[4]) : '',
      time: end?.[0] ?? 0,
    });
  }, [history.data, range]);

  useRanger('public', [`${market.id}.kline-${period}`], (payload) => {
    const k = payload as Kline;
    if (!Array.isArray(k) || !candles.current) return;
    byTime.current.set(local(k[0]), k);
    candles.current.update(toCandle(k));
    volumes.current?.update(toVolume(k));
    setLatest(k);
    setLast((prev) => ({
      count: k[0] > prev.time ? prev.count + 1 : prev.count,
      open: prev.open || String(k[1]),
      close: String(k[4]),
      time: Math.max(prev.time, k[0]),
    }));
  });

  const shown = hovered ?? latest;
  const readout = shown && candleReadout(shown, pp, market.amount_precision);
  const summaryId = `chart-summary-${market.id}`;
  return (
    <Box>
      {/* In the flow, not over the candles, with its height kept while empty so the chart never jumps. */}
      <Group
        gap={8}
        mih={18}
        wrap="wrap"
        data-testid="candle-readout"
        data-hovered={hovered ? 'true' : 'false'}
        data-close={readout?.close}
        data-volume={readout?.volume}
      >
        {readout &&
          (['open', 'high', 'low', 'close', 'volume'] as const).map((field) => (
            <Text key={field} span size="xs" className="tabular">
              <Text span inherit c="dimmed">
                {t(`trading.chart.${field}`)}
              </Text>{' '}
              {readout[field]}
            </Text>
          ))}
        {(history.isError || (history.isSuccess && last.count === 0)) && (
          <Text span size="xs" c="dimmed">
            {t('trading.chart.noData')}
          </Text>
        )}
      </Group>
      <VisuallyHidden id={summaryId} data-testid="chart-summary">
        {chartSummary(t, last, pp)}
      </VisuallyHidden>
      <Box
        ref={box}
        h={height}
        role="figure"
        aria-label={t('trading.chart.label', { period })}
        aria-describedby={summaryId}
        data-testid="price-chart"
        data-candles={last.count}
        data-last-close={last.close}
        data-time-from={range?.from}
        data-panes={chart.current?.panes().length ?? 0}
        data-period={period}
      />
    </Box>
  );
}
