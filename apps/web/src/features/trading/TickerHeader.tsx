import { Group, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { fixed } from '../../components/format.tsx';
import type { Market, Ticker } from './api.ts';
import { pairName } from './format.tsx';

/** Volume precision (docs/trading.md#constants). */
const VOLUME_PRECISION = 8;

function Figure({ label, value, c, testId }: { label: string; value: string; c?: string; testId?: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} c={c} data-testid={testId}>
        {value}
      </Text>
    </Stack>
  );
}

/** The market's name with last price, 24-hour change, high, low and volume. */
export function TickerHeader({ market, ticker }: { market: Market; ticker: Ticker | undefined }) {
  const { t } = useTranslation();
  const price = (v: string | undefined) => fixed(v ?? '0', market.price_precision, market.price_precision);
  const change = ticker?.price_change_percent ?? '+0.00%';
  return (
    <Paper withBorder p="xs">
      <Group gap="lg" wrap="wrap">
        <Text fw={700} size="lg">
          {pairName(market.base_unit, market.quote_unit)}
        </Text>
        <Figure label={t('trading.ticker.last')} value={price(ticker?.last)} testId="ticker-last" />
        <Figure
          label={t('trading.ticker.change')}
          value={change}
          c={change.startsWith('-') ? 'red' : 'teal'}
          testId="ticker-change"
        />
        <Figure label={t('trading.ticker.high')} value={price(ticker?.high)} />
        <Figure label={t('trading.ticker.low')} value={price(ticker?.low)} />
        <Figure
          label={t('trading.ticker.volume', { unit: market.base_unit.toUpperCase() })}
          value={fixed(ticker?.volume ?? '0', VOLUME_PRECISION)}
        />
      </Group>
    </Paper>
  );
}
