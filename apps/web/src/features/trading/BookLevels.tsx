import { Table, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { type KeyboardEvent, type ReactNode, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fixed } from '../../components/format.tsx';
import type { Market } from './api.ts';
import type { BookRow } from './book.ts';
import { amountUpTo, type BookPick } from './book-view.ts';

/** The levels of both sides as shown: asks and bids, each best first. */
export interface SideRows {
  asks: BookRow[];
  bids: BookRow[];
}

interface Level {
  side: 'ask' | 'bid';
  row: BookRow;
}

/**
 * The book's table: asks (highest first) above `spreadRow`, bids below. Each price is a button: a click (Shift:
 * with the amount up to it) or Enter/Space on it picks the level. The levels are one stop in the tab order and the
 * arrow keys, Home and End move between them (a roving tab index), so the keyboard does not walk through 24 rows
 * to get past the book.
 */
export function BookLevels({
  market,
  rows,
  titleId,
  hintId,
  onPick,
  spreadRow,
}: {
  market: Market;
  rows: SideRows;
  titleId: string;
  hintId: string;
  onPick?: (pick: BookPick) => void;
  spreadRow: ReactNode;
}) {
  const { t } = useTranslation();
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const [active, setActive] = useState(0);
  const levels: Level[] = [
    ...[...rows.asks].reverse().map((row) => ({ side: 'ask' as const, row })),
    ...rows.bids.map((row) => ({ side: 'bid' as const, row })),
  ];
  const focusable = Math.min(active, Math.max(0, levels.length - 1));
  // biome-ignore lint/complexity/useMathMinMax: Math.max takes no bigint
  const max = levels.reduce((m, l) => (l.row.total > m ? l.row.total : m), 1n);
  const price = (r: BookRow) => fixed(r.price, market.price_precision, market.price_precision);
  const amount = (r: BookRow) => fixed(r.amount, market.amount_precision, market.amount_precision);
  const base = market.base_unit.toUpperCase();

  const pick = (side: Level['side'], row: BookRow, withAmount: boolean) =>
    onPick?.({
      side,
      // Written out to the market's precisions, as the book shows them.
      price: price(row),
      ...(withAmount
        ? {
            amount: fixed(
              amountUpTo(row, market.amount_precision),
              market.amount_precision,
              market.amount_precision,
            ),
          }
        : {}),
    });

  const move = (event: KeyboardEvent, index: number, level: Level) => {
    const targets: Record<string, number> = {
      ArrowUp: index - 1,
      ArrowDown: index + 1,
      Home: 0,
      End: levels.length - 1,
    };
    const target = targets[event.key];
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      pick(level.side, level.row, event.shiftKey);
    } else if (target !== undefined && target >= 0 && target < levels.length) {
      event.preventDefault();
      setActive(target);
      buttons.current[target]?.focus();
    }
  };

  const row = (level: Level, index: number) => {
    const { side, row: r } = level;
    const width = Number((r.total * 1000n) / max) / 10;
    const color = side === 'ask' ? 'rgba(250, 82, 82, 0.15)' : 'rgba(18, 184, 134, 0.15)';
    return (
      <Table.Tr
        key={`${side}-${r.price}`}
        data-testid={`book-${side}`}
        data-price={price(r)}
        data-amount={amount(r)}
        data-total={amountUpTo(r, market.amount_precision)}
        style={{
          background: `linear-gradient(to left, ${color} ${width}%, transparent ${width}%)`,
          cursor: onPick ? 'pointer' : undefined,
        }}
        onClick={(e) => {
          setActive(index);
          pick(side, r, e.shiftKey);
        }}
      >
        <Table.Td c={side === 'ask' ? 'red' : 'teal'} className="tabular">
          <UnstyledButton
            ref={(el) => {
              buttons.current[index] = el;
            }}
            className="book-level"
            fz="xs"
            c="inherit"
            tabIndex={index === focusable ? 0 : -1}
            aria-label={t('trading.book.level', { price: price(r), amount: amount(r), unit: base })}
            aria-describedby={hintId}
            onFocus={() => setActive(index)}
            onKeyDown={(e) => move(e, index, level)}
          >
            {price(r)}
          </UnstyledButton>
        </Table.Td>
        <Table.Td ta="right" className="tabular">
          {amount(r)}
        </Table.Td>
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
  const asks = levels.filter((l) => l.side === 'ask');

  return (
    <Table fz="xs" horizontalSpacing={4} verticalSpacing={0} withRowBorders={false} aria-labelledby={titleId}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th fw={400} c="dimmed">
            {t('trading.book.price', { unit: market.quote_unit.toUpperCase() })}
          </Table.Th>
          <Table.Th fw={400} c="dimmed" ta="right">
            {t('trading.book.amount', { unit: base })}
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {asks.length > 0 && sideHeading(t('trading.book.asks'))}
        {asks.map((l, i) => row(l, i))}
      </Table.Tbody>
      <Table.Tbody style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
        {spreadRow}
      </Table.Tbody>
      <Table.Tbody style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
        {rows.bids.length > 0 && sideHeading(t('trading.book.bids'))}
        {levels.slice(asks.length).map((l, i) => row(l, asks.length + i))}
      </Table.Tbody>
    </Table>
  );
}
