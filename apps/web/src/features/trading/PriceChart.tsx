import { Group, Paper, SegmentedControl, Tabs, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Market } from './api.ts';
import type { BookState } from './book.ts';
import { CandleChart, type ChartRange } from './CandleChart.tsx';
import { DEFAULT_PERIOD, PERIODS, periodForFrame, TIME_FRAMES } from './chart-period.ts';
import { DepthChart } from './DepthChart.tsx';

const DAY = 86_400;
/** Tight labels: the twelve periods fit a phone's width in one row. */
const COMPACT = { label: { paddingInline: 5 } };

/**
 * The chart panel: candlesticks with volume, by period and time frame, and the depth chart of the live book, in
 * two tabs. A time frame picks the candle size that fits it (see {@link periodForFrame}); picking a period
 * afterwards shows that period's latest candles.
 */
export function PriceChart({
  market,
  book,
  height = 340,
}: {
  market: Market;
  book: BookState;
  height?: number;
}) {
  const { t } = useTranslation();
  const [view, setView] = useState<string | null>('candles');
  const [period, setPeriod] = useState(DEFAULT_PERIOD);
  const [range, setRange] = useState<ChartRange | null>(null);

  const chooseFrame = (frame: string) => {
    const to = Math.floor(Date.now() / 1000);
    setRange({ frame, from: to - (TIME_FRAMES[frame] ?? DAY), to });
    setPeriod(periodForFrame(frame));
  };
  const choosePeriod = (next: string) => {
    setPeriod(next);
    setRange(null);
  };

  return (
    <Paper withBorder p="xs" data-testid="chart-panel">
      <Tabs value={view} onChange={setView} keepMounted={false}>
        <Group justify="space-between" gap={6} mb={4} wrap="wrap">
          <Tabs.List aria-label={t('trading.chart.view')}>
            <Tabs.Tab value="candles" py={4} px="xs">
              {t('trading.chart.candles')}
            </Tabs.Tab>
            <Tabs.Tab value="depth" py={4} px="xs" data-testid="depth-tab">
              {t('trading.chart.depth')}
            </Tabs.Tab>
          </Tabs.List>
          {view === 'candles' && (
            <SegmentedControl
              size="xs"
              styles={COMPACT}
              value={range?.frame ?? ''}
              onChange={chooseFrame}
              data={Object.keys(TIME_FRAMES)}
              aria-label={t('trading.chart.timeFrame')}
              data-testid="chart-time-frame"
            />
          )}
        </Group>
        <Tabs.Panel value="candles">
          <SegmentedControl
            size="xs"
            styles={COMPACT}
            value={period}
            onChange={choosePeriod}
            data={Object.keys(PERIODS)}
            aria-label={t('trading.chart.period')}
            data-testid="chart-period"
            mb={4}
            maw="100%"
          />
          <CandleChart market={market} period={period} range={range} height={height} />
        </Tabs.Panel>
        <Tabs.Panel value="depth">
          <DepthChart market={market} book={book} height={height + 40} />
        </Tabs.Panel>
      </Tabs>
    </Paper>
  );
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
