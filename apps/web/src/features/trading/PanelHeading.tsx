import { Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Market } from './api.ts';

/** The title of a market panel (order book, recent trades) and its price and amount column labels. */
export function PanelHeading({ title, market, extra }: { title: string; market: Market; extra?: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Text fw={600} size="sm" mb={4}>
        {title}
      </Text>
      <Group justify="space-between" px={4}>
        <Text size="xs" c="dimmed">
          {t('trading.book.price', { unit: market.quote_unit.toUpperCase() })}
        </Text>
        <Text size="xs" c="dimmed">
          {t('trading.book.amount', { unit: market.base_unit.toUpperCase() })}
        </Text>
        {extra && (
          <Text size="xs" c="dimmed">
            {extra}
          </Text>
        )}
      </Group>
    </>
  );
}
