import type { TFunction } from 'i18next';

/** Buy green, sell red (docs/trading.md#constants), for candles, volume bars and the depth chart. */
export const UP_COLOR = '#12b886';
export const DOWN_COLOR = '#fa5252';

/** The charts' background, text and grid in each theme. */
export const CHART_COLORS = {
  dark: { background: '#1a1b1e', text: '#c1c2c5', grid: '#2c2e33' },
  light: { background: '#ffffff', text: '#212529', grid: '#e9ecef' },
};

/**
 * The chart's text alternative (WCAG 1.1.1): the last price and its change since the first candle shown, e.g.
 * "Last price 0.05000, up 2.04 % over the chart (from 0.04900)". Display only: k-lines arrive as numbers.
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
