import { Group, Paper, ScrollArea, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { useRanger } from '../../api/ranger.ts';
import { fixed, longDate, timeOnly } from '../../components/format.tsx';
import type { Market } from './api.ts';
import { sideColor } from './format.tsx';
import { PanelHeading } from './PanelHeading.tsx';

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

  return (
    <Paper withBorder p="xs" data-testid="recent-trades">
      <PanelHeading title={t('trading.trades.title')} market={market} extra={t('trading.trades.time')} />
      <ScrollArea h={240}>
        {(data ?? []).map((tr) => (
          <Group key={tr.id} justify="space-between" px={4} data-testid="trade-row" data-id={tr.id}>
            <Text size="xs" c={sideColor(tr.taker_type)}>
              {fixed(tr.price, market.price_precision, market.price_precision)}
            </Text>
            <Text size="xs">{fixed(tr.amount, market.amount_precision, market.amount_precision)}</Text>
            <Text size="xs" c="dimmed" title={longDate(tr.created_at)}>
              {timeOnly(tr.created_at)}
            </Text>
          </Group>
        ))}
        {data?.length === 0 && (
          <Text size="xs" c="dimmed" ta="center">
            {t('trading.empty')}
          </Text>
        )}
      </ScrollArea>
    </Paper>
  );
}
