import { LIMITS } from '@exchange/shared';
import { Group, Pagination, Table, Text, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Amount, shortDate } from '../../components/format.tsx';
import type { Market, Order } from './api.ts';
import {
  fillKey,
  marketPairName,
  ORDER_TYPE_KEYS,
  openFillKey,
  sideColor,
  stateKey,
  triggersDown,
} from './format.tsx';

/** What both orders tables show: the orders, the markets that name their pairs, and an optional action. */
export interface OrdersTableProps {
  orders: Order[];
  markets: Market[] | undefined;
  /** Open orders label New/Partial by trades; history by the remaining volume (docs/trading.md#states). */
  open?: boolean;
  action?: (order: Order) => ReactNode;
  testId?: string;
}

/**
 * Orders with the spec's columns: date, pair, type (side), order (type), state, price or Market, volume, average,
 * fulfilled; `action` adds a last column.
 */
export function OrdersTable({ orders, markets, open, action, testId }: OrdersTableProps) {
  const { t } = useTranslation();
  const pair = (id: string) => marketPairName(markets, id);
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table fz="xs" striped horizontalSpacing={5} className="trading-nowrap" data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('trading.orders.date')}</Table.Th>
            <Table.Th>{t('trading.orders.pair')}</Table.Th>
            <Table.Th>{t('trading.orders.side')}</Table.Th>
            <Table.Th>{t('trading.orders.type')}</Table.Th>
            <Table.Th>{t('trading.orders.state')}</Table.Th>
            <Table.Th>{t('trading.orders.price')}</Table.Th>
            {open && <Table.Th>{t('trading.orders.trigger')}</Table.Th>}
            <Table.Th>{t('trading.orders.volume')}</Table.Th>
            <Table.Th>{t('trading.orders.average')}</Table.Th>
            <Table.Th>{t('trading.orders.filled')}</Table.Th>
            {action && <Table.Th />}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {orders.map((o) => (
            <Table.Tr key={o.id} data-order-id={o.id} data-state={o.state}>
              <Table.Td>{shortDate(o.created_at)}</Table.Td>
              <Table.Td>{pair(o.market)}</Table.Td>
              <Table.Td>
                <Text span inherit c={sideColor(o.side)}>
                  {t(`trading.side.${o.side}`)}
                </Text>
              </Table.Td>
              <Table.Td>{t(ORDER_TYPE_KEYS[o.ord_type] ?? 'trading.type.limit')}</Table.Td>
              <Table.Td>
                {o.state === 'wait' || o.state === 'pending'
                  ? t(open ? openFillKey(o) : stateKey(o.state))
                  : `${t(stateKey(o.state))} (${t(fillKey(o))})`}
              </Table.Td>
              <Table.Td>{o.price ? <Amount value={o.price} /> : t('trading.type.market')}</Table.Td>
              {open && (
                <Table.Td data-testid="order-trigger" className="tabular">
                  {o.stop_price ? <Trigger order={o} /> : '—'}
                </Table.Td>
              )}
              <Table.Td>
                <Amount value={o.origin_volume} />
              </Table.Td>
              <Table.Td>
                <Amount value={o.avg_price} />
              </Table.Td>
              <Table.Td>
                <Amount value={o.executed_volume} />
              </Table.Td>
              {action && <Table.Td>{action(o)}</Table.Td>}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {orders.length === 0 && (
        <Text size="sm" c="dimmed" ta="center" py="sm">
          {t('trading.empty')}
        </Text>
      )}
    </Table.ScrollContainer>
  );
}

/** Pages only when there is more than one (docs/trading.md#constants). */
export function Pager({
  total,
  page,
  onChange,
}: {
  total: number;
  page: number;
  onChange: (p: number) => void;
}) {
  const pages = Math.ceil(total / LIMITS.tablePageLimit);
  if (pages <= 1) return null;
  return (
    <Group justify="flex-end">
      <Pagination size="sm" total={pages} value={page} onChange={onChange} />
    </Group>
  );
}

/** A stop order's trigger, short ("≤ 0.021"), with what it means in a tooltip and for screen readers. */
export function Trigger({ order }: { order: Order }) {
  const { t } = useTranslation();
  const down = triggersDown(order.ord_type, order.side);
  const params = { price: order.stop_price };
  const long = t(down ? 'trading.orders.triggerDownLong' : 'trading.orders.triggerUpLong', params);
  return (
    <Tooltip label={long}>
      <Text span inherit aria-label={long}>
        {t(down ? 'trading.orders.triggerDown' : 'trading.orders.triggerUp', params)}
      </Text>
    </Tooltip>
  );
}
