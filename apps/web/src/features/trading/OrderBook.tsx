import { Box, Group, Paper, Text } from '@mantine/core';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ranger, useRanger } from '../../api/ranger.ts';
import { fixed, units } from '../../components/format.tsx';
import type { Market } from './api.ts';

type Level = [string, string];
interface Book {
  asks: Map<string, string>;
  bids: Map<string, string>;
  sequence: number;
}

/** Levels shown per side. */
const DEPTH = 12;

const emptyBook = (): Book => ({ asks: new Map(), bids: new Map(), sequence: -1 });

function levels(value: unknown): Level[] {
  if (!Array.isArray(value)) return [];
  if (value.length === 2 && typeof value[0] === 'string') return [value as Level];
  return value.filter((v): v is Level => Array.isArray(v) && v.length >= 2);
}

function apply(side: Map<string, string>, list: Level[]): void {
  for (const [price, amount] of list) {
    const key = fixed(price, 18);
    if (units(amount) === 0n) side.delete(key);
    else side.set(key, amount);
  }
}

/** Best first: asks ascending, bids descending; with the running total for the depth bars. */
function sorted(side: Map<string, string>, ascending: boolean) {
  const rows = [...side.entries()].sort(([a], [b]) => {
    const d = units(a) - units(b);
    return (ascending ? d > 0n : d < 0n) ? 1 : d === 0n ? 0 : -1;
  });
  let total = 0n;
  return rows.slice(0, DEPTH).map(([price, amount]) => {
    total += units(amount);
    return { price, amount, total };
  });
}

/**
 * Order book from `<m>.ob-snap` (sent on subscribing to `<m>.ob-inc`) and `<m>.ob-inc` one-level changes; a
 * sequence gap subscribes again for a fresh snapshot.
 */
export function OrderBook({ market }: { market: Market }) {
  const { t } = useTranslation();
  const book = useRef<Book>(emptyBook());
  const [, render] = useState(0);
  const stream = `${market.id}.ob-inc`;

  useRanger(
    'public',
    [stream],
    (payload, key) => {
      const frame = payload as { asks?: unknown; bids?: unknown; sequence?: number };
      const b = book.current;
      if (key.endsWith('.ob-snap')) {
        b.asks = new Map();
        b.bids = new Map();
        b.sequence = frame.sequence ?? 0;
      } else {
        if (b.sequence < 0) return;
        if (frame.sequence !== b.sequence + 1) {
          b.sequence = -1;
          ranger.public.resubscribe([stream]);
          return;
        }
        b.sequence = frame.sequence;
      }
      apply(b.asks, levels(frame.asks));
      apply(b.bids, levels(frame.bids));
      render((n) => n + 1);
    },
    [stream, `${market.id}.ob-snap`],
  );

  const asks = sorted(book.current.asks, true);
  const bids = sorted(book.current.bids, false);
  const max = [...asks, ...bids].reduce((m, r) => (r.total > m ? r.total : m), 1n);
  const row = (side: 'ask' | 'bid', r: { price: string; amount: string; total: bigint }) => {
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
      <Text fw={600} size="sm" mb={4}>
        {t('trading.book.title')}
      </Text>
      <Group justify="space-between" px={4}>
        <Text size="xs" c="dimmed">
          {t('trading.book.price', { unit: market.quote_unit.toUpperCase() })}
        </Text>
        <Text size="xs" c="dimmed">
          {t('trading.book.amount', { unit: market.base_unit.toUpperCase() })}
        </Text>
      </Group>
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
