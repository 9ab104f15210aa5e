import { Box, Group, NativeSelect, Paper, Table, Text, VisuallyHidden } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fixed } from '../../components/format.tsx';
import type { Market } from './api.ts';
import { BookLevels, type SideRows } from './BookLevels.tsx';
import type { BookState } from './book.ts';
import { type BookPick, bookSpread, groupedLevels, groupingSteps } from './book-view.ts';

/** Levels shown per side unless the layout asks for another number. */
const DEPTH = 12;

/**
 * Order book, as a table (price, amount; asks above bids, the mid price and spread between them) of the live
 * levels the trading page holds, grouped by a chosen multiple of the price tick. Choosing a level (click, or Enter
 * on it) hands its price to the order form; with Shift also the amount from the best level up to it.
 */
export function OrderBook({
  market,
  book,
  onPick,
  depth = DEPTH,
}: {
  market: Market;
  book: BookState;
  onPick?: (pick: BookPick) => void;
  depth?: number;
}) {
  const { t } = useTranslation();
  const steps = useMemo(() => groupingSteps(market.price_precision), [market.price_precision]);
  const [step, setStep] = useState(steps[0] ?? '');
  const rows: SideRows = useMemo(
    () => ({
      asks: groupedLevels(book.asks, true, step, depth),
      bids: groupedLevels(book.bids, false, step, depth),
    }),
    [book, step, depth],
  );
  // The spread is that of the book itself, whatever the grouping: grouping moves the shown prices apart.
  const spread = useMemo(() => {
    const [bestAsk] = groupedLevels(book.asks, true, '0', 1);
    const [bestBid] = groupedLevels(book.bids, false, '0', 1);
    return bookSpread(bestAsk?.price, bestBid?.price);
  }, [book]);
  const pp = market.price_precision;
  const titleId = `book-title-${market.id}`;
  const hintId = `book-hint-${market.id}`;

  return (
    <Paper withBorder p="xs" data-testid="order-book">
      <Group justify="space-between" mb={4} wrap="nowrap">
        <Text fw={600} size="sm" id={titleId}>
          {t('trading.book.title')}
        </Text>
        <NativeSelect
          size="xs"
          w={96}
          aria-label={t('trading.book.grouping')}
          data-testid="book-grouping"
          value={step}
          onChange={(e) => setStep(e.currentTarget.value)}
          data={steps.map((s) => ({ value: s, label: fixed(s, pp, 0) }))}
        />
      </Group>
      <VisuallyHidden id={hintId}>{t('trading.book.pickHint')}</VisuallyHidden>
      <Box mih={depth * 20}>
        <BookLevels
          market={market}
          rows={rows}
          titleId={titleId}
          hintId={hintId}
          onPick={onPick}
          spreadRow={
            spread && (
              <Table.Tr
                data-testid="book-spread"
                data-mid={fixed(spread.mid, pp + 1, pp)}
                data-spread={fixed(spread.spread, pp, pp)}
              >
                <Table.Td colSpan={2} py={4}>
                  <Group justify="space-between" gap={4} wrap="nowrap">
                    <Text span fw={700} size="sm" className="tabular" title={t('trading.book.mid')}>
                      <VisuallyHidden>{t('trading.book.mid')} </VisuallyHidden>
                      {fixed(spread.mid, pp + 1, pp)}
                    </Text>
                    <Text span size="xs" c="dimmed" className="tabular">
                      {t('trading.book.spread', {
                        spread: fixed(spread.spread, pp, pp),
                        percent: spread.percent,
                      })}
                    </Text>
                  </Group>
                </Table.Td>
              </Table.Tr>
            )
          }
        />
        {rows.asks.length === 0 && rows.bids.length === 0 && (
          <Text size="xs" c="dimmed" ta="center">
            {t('trading.empty')}
          </Text>
        )}
      </Box>
    </Paper>
  );
}
