import { formatUnits } from '@exchange/shared';
import { Box, useComputedColorScheme, VisuallyHidden } from '@mantine/core';
import {
  type AreaData,
  AreaSeries,
  createOptionsChart,
  type IChartApiBase,
  type ISeriesApi,
  LineType,
} from 'lightweight-charts';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { fixed, SCALE } from '../../components/format.tsx';
import type { Market } from './api.ts';
import type { BookRow, BookState } from './book.ts';
import { groupedLevels } from './book-view.ts';
import { CHART_COLORS, DOWN_COLOR, UP_COLOR } from './chart-theme.ts';

/** Levels per side drawn: the book's whole near side, not only what its table shows. */
const DEPTH_LEVELS = 200;

/** A side's cumulative amounts by ascending price; numbers only for drawing (the book stays exact). */
function points(rows: BookRow[]): AreaData<number>[] {
  return rows
    .map((r) => ({ time: Number(r.price), value: Number(formatUnits(r.total, SCALE)) }))
    .sort((a, b) => a.time - b.time);
}

/**
 * The depth chart (issue 32): the cumulative amount of the bids (green, rising to the left of the spread) and of
 * the asks (red, rising to the right) by price, from the live order book the trading page holds.
 */
export function DepthChart({ market, book, height }: { market: Market; book: BookState; height: number }) {
  const { t } = useTranslation();
  const scheme = useComputedColorScheme('dark');
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApiBase<number> | null>(null);
  const bids = useRef<ISeriesApi<'Area', number> | null>(null);
  const asks = useRef<ISeriesApi<'Area', number> | null>(null);
  const sides = useMemo(
    () => ({
      bids: groupedLevels(book.bids, false, '0', DEPTH_LEVELS),
      asks: groupedLevels(book.asks, true, '0', DEPTH_LEVELS),
    }),
    [book],
  );

  useEffect(() => {
    if (!box.current) return;
    // Prices along the bottom at the market's precision; amounts up the side at its amount precision.
    const created = createOptionsChart(box.current, {
      autoSize: true,
      localization: { precision: market.price_precision },
    });
    const amounts = {
      type: 'price' as const,
      precision: market.amount_precision,
      minMove: 10 ** -market.amount_precision,
    };
    const area = (color: string) => ({
      lineColor: color,
      topColor: `${color}66`,
      bottomColor: `${color}0d`,
      lineType: LineType.WithSteps,
      lineWidth: 2 as const,
      priceLineVisible: false,
      priceFormat: amounts,
    });
    chart.current = created;
    bids.current = created.addSeries(AreaSeries, area(UP_COLOR));
    asks.current = created.addSeries(AreaSeries, area(DOWN_COLOR));
    return () => {
      created.remove();
      chart.current = null;
    };
  }, [market.price_precision, market.amount_precision]);

  useEffect(() => {
    const c = CHART_COLORS[scheme];
    chart.current?.applyOptions({
      layout: { background: { color: c.background }, textColor: c.text },
      grid: { vertLines: { color: c.grid }, horzLines: { color: c.grid } },
    });
  }, [scheme]);

  useEffect(() => {
    bids.current?.setData(points(sides.bids));
    asks.current?.setData(points(sides.asks));
    chart.current?.timeScale().fitContent();
  }, [sides]);

  const amount = (rows: BookRow[]) =>
    fixed(formatUnits(rows.at(-1)?.total ?? 0n, SCALE), market.amount_precision, market.amount_precision);
  const price = (rows: BookRow[]) =>
    fixed(rows.at(-1)?.price ?? '0', market.price_precision, market.price_precision);
  const summaryId = `depth-summary-${market.id}`;
  return (
    <>
      <VisuallyHidden id={summaryId}>
        {t('trading.chart.depthSummary', {
          bids: amount(sides.bids),
          lowest: price(sides.bids),
          asks: amount(sides.asks),
          highest: price(sides.asks),
          unit: market.base_unit.toUpperCase(),
        })}
      </VisuallyHidden>
      <Box
        ref={box}
        h={height}
        role="figure"
        aria-label={t('trading.chart.depthLabel')}
        aria-describedby={summaryId}
        data-testid="depth-chart"
        data-bid-total={amount(sides.bids)}
        data-ask-total={amount(sides.asks)}
        data-bid-levels={sides.bids.length}
        data-ask-levels={sides.asks.length}
      />
    </>
  );
}
