import { Paper, ScrollArea, Table, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { useRanger } from '../../api/ranger.ts';
import { fixed, longDate, timeOnly } from '../../components/format.tsx';
import type { Market } from './api.ts';
import { sideColor } from './format.tsx';

interface PublicTrade {
  id: number;
  price: string;
  amount: string;
  created_at: string;
  taker_type: string;
}

/** Trades kept in the list. */
const LENGTH = 50;

/** Latest public trades of the market: loaded once, then live from `<m>.trades`. */
export function RecentTrades({ market }: { market: Market }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const key = ['trading', 'public-trades', market.id];
  const { data } = useQuery({
    queryKey: key,
    queryFn: () =>
      api<PublicTrade[]>('peatio', `/public/markets/${market.id}/trades`, { query: { limit: LENGTH } }),
  });

  useRanger('public', [`${market.id}.trades`], (payload) => {
    const list = (
      payload as {
        trades?: { tid: number; taker_type: string; date: number; price: string; amount: string }[];
      }
    ).trades;
    if (!Array.isArray(list)) return;
    const added = list
      .map((tr) => ({
        id: tr.tid,
        price: tr.price,
        amount: tr.amount,
        taker_type: tr.taker_type,
        created_at: new Date(tr.date * 1000).toISOString(),
      }))
      .reverse();
    client.setQueryData<PublicTrade[]>(key, (old) => {
      const seen = new Set(added.map((a) => a.id));
      return [...added, ...(old ?? []).filter((o) => !seen.has(o.id))].slice(0, LENGTH);
    });
  });

  const titleId = `trades-title-${market.id}`;
  return (
    <Paper withBorder p="xs" data-testid="recent-trades">
      <Text fw={600} size="sm" mb={4} id={titleId}>
        {t('trading.trades.title')}
      </Text>
      {/* The list scrolls once trades arrive: its viewport is a named region the keyboard can reach and scroll
          (WCAG 2.1.1; axe scrollable-region-focusable), as it holds nothing focusable itself. */}
      <ScrollArea
        h={240}
        viewportProps={{
          tabIndex: 0,
          role: 'region',
          'aria-labelledby': titleId,
          className: 'scroll-region',
        }}
      >
        <Table
          fz="xs"
          horizontalSpacing={4}
          verticalSpacing={0}
          withRowBorders={false}
          aria-labelledby={titleId}
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th fw={400} c="dimmed">
                {t('trading.book.price', { unit: market.quote_unit.toUpperCase() })}
              </Table.Th>
              <Table.Th fw={400} c="dimmed" ta="center">
                {t('trading.book.amount', { unit: market.base_unit.toUpperCase() })}
              </Table.Th>
              <Table.Th fw={400} c="dimmed" ta="right">
                {t('trading.trades.time')}
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(data ?? []).map((tr) => (
              <Table.Tr key={tr.id} data-testid="trade-row" data-id={tr.id}>
                <Table.Td c={sideColor(tr.taker_type)}>
                  {fixed(tr.price, market.price_precision, market.price_precision)}
                </Table.Td>
                <Table.Td ta="center">
                  {fixed(tr.amount, market.amount_precision, market.amount_precision)}
                </Table.Td>
                <Table.Td ta="right" c="dimmed" title={longDate(tr.created_at)}>
                  {timeOnly(tr.created_at)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {data?.length === 0 && (
          <Text size="xs" c="dimmed" ta="center">
            {t('trading.empty')}
          </Text>
        )}
      </ScrollArea>
    </Paper>
  );
}
