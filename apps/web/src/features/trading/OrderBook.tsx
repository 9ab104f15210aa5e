import { Box, Paper, Table, Text, VisuallyHidden } from '@mantine/core';
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

/** Levels shown per side. */
const DEPTH = 12;

/**
 * Order book, as a table (price, amount; asks above bids), from `<m>.ob-snap` (sent on subscribing to `<m>.ob-inc`) and `<m>.ob-inc` one-level changes; a
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
  const price = (r: BookRow) => fixed(r.price, market.price_precision, market.price_precision);
  const amount = (r: BookRow) => fixed(r.amount, market.amount_precision, market.amount_precision);
  const row = (side: 'ask' | 'bid', r: BookRow) => {
    const width = Number((r.total * 1000n) / max) / 10;
    const color = side === 'ask' ? 'rgba(250, 82, 82, 0.15)' : 'rgba(18, 184, 134, 0.15)';
    return (
      <Table.Tr
        key={r.price}
        data-testid={`book-${side}`}
        data-price={price(r)}
        data-amount={amount(r)}
        style={{ background: `linear-gradient(to left, ${color} ${width}%, transparent ${width}%)` }}
      >
        <Table.Td c={side === 'ask' ? 'red' : 'teal'}>{price(r)}</Table.Td>
        <Table.Td ta="right">{amount(r)}</Table.Td>
      </Table.Tr>
    );
  };
  /** A side's heading row, for screen readers (colour and place tell the sides apart on screen). */
  const sideHeading = (label: string) => (
    <Table.Tr>
      <Table.Th colSpan={2} scope="rowgroup" p={0}>
        <VisuallyHidden>{label}</VisuallyHidden>
      </Table.Th>
    </Table.Tr>
  );

  return (
    <Paper withBorder p="xs" data-testid="order-book">
      <Text fw={600} size="sm" mb={4} id={`book-title-${market.id}`}>
        {t('trading.book.title')}
      </Text>
      <Box mih={DEPTH * 20}>
        <Table
          fz="xs"
          horizontalSpacing={4}
          verticalSpacing={0}
          withRowBorders={false}
          aria-labelledby={`book-title-${market.id}`}
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th fw={400} c="dimmed">
                {t('trading.book.price', { unit: market.quote_unit.toUpperCase() })}
              </Table.Th>
              <Table.Th fw={400} c="dimmed" ta="right">
                {t('trading.book.amount', { unit: market.base_unit.toUpperCase() })}
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {asks.length > 0 && sideHeading(t('trading.book.asks'))}
            {[...asks].reverse().map((r) => row('ask', r))}
          </Table.Tbody>
          <Table.Tbody style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
            {bids.length > 0 && sideHeading(t('trading.book.bids'))}
            {bids.map((r) => row('bid', r))}
          </Table.Tbody>
        </Table>
        {asks.length === 0 && bids.length === 0 && (
          <Text size="xs" c="dimmed" ta="center">
            {t('trading.empty')}
          </Text>
        )}
      </Box>
    </Paper>
  );
}
