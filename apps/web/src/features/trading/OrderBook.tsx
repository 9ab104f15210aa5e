import { Box, Group, Paper, Text } from '@mantine/core';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ranger, useRanger } from '../../api/ranger.ts';
import { fixed } from '../../components/format.tsx';
import type { Market } from './api.ts';
import {
  type BookFrame,
  type BookRow,
  type BookState,
  bestLevels,
  emptyBook,
  mergeBookFrame,
} from './book.ts';
import { PanelHeading } from './PanelHeading.tsx';

/** Levels shown per side. */
const DEPTH = 12;

/**
 * Order book from `<m>.ob-snap` (sent on subscribing to `<m>.ob-inc`) and `<m>.ob-inc` one-level changes; a
 * sequence gap subscribes again for a fresh snapshot.
 */
export function OrderBook({ market }: { market: Market }) {
  const { t } = useTranslation();
  // A ref, not only state: frames can arrive faster than React renders, and each builds on the previous one.
  const book = useRef<BookState>(emptyBook());
  const [shown, setShown] = useState<BookState>(book.current);
  const stream = `${market.id}.ob-inc`;

  useRanger(
    'public',
    [stream],
    (payload, key) => {
      const kind = key.endsWith('.ob-snap') ? 'snap' : 'inc';
      const { book: next, resync } = mergeBookFrame(book.current, kind, (payload ?? {}) as BookFrame);
      if (next === book.current) return;
      book.current = next;
      setShown(next);
      if (resync) ranger.public.resubscribe([stream]);
    },
    [stream, `${market.id}.ob-snap`],
  );

  const asks = bestLevels(shown.asks, true, DEPTH);
  const bids = bestLevels(shown.bids, false, DEPTH);
  const max = [...asks, ...bids].reduce((m, r) => (r.total > m ? r.total : m), 1n);
  const row = (side: 'ask' | 'bid', r: BookRow) => {
    const width = Number((r.total * 1000n) / max) / 10;
    const color = side === 'ask' ? 'rgba(250, 82, 82, 0.15)' : 'rgba(18, 184, 134, 0.15)';
    return (
      <Group
        key={r.price}
        justify="space-between"
        px={4}
        data-testid={`book-${side}`}
        data-price={fixed(r.price, market.price_precision, market.price_precision)}
        data-amount={fixed(r.amount, market.amount_precision, market.amount_precision)}
        style={{
          background: `linear-gradient(to left, ${color} ${width}%, transparent ${width}%)`,
        }}
      >
        <Text size="xs" c={side === 'ask' ? 'red' : 'teal'}>
          {fixed(r.price, market.price_precision, market.price_precision)}
        </Text>
        <Text size="xs">{fixed(r.amount, market.amount_precision, market.amount_precision)}</Text>
      </Group>
    );
  };

  return (
    <Paper withBorder p="xs" data-testid="order-book">
      <PanelHeading title={t('trading.book.title')} market={market} />
      <Box mih={DEPTH * 10}>{[...asks].reverse().map((r) => row('ask', r))}</Box>
      <Box my={4} style={{ borderTop: '1px solid var(--mantine-color-default-border)' }} />
      <Box mih={DEPTH * 10}>{bids.map((r) => row('bid', r))}</Box>
      {asks.length === 0 && bids.length === 0 && (
        <Text size="xs" c="dimmed" ta="center">
          {t('trading.empty')}
        </Text>
      )}
    </Paper>
  );
}
