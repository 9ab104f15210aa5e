import { Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { shortDate } from '../../components/format.tsx';
import { marketPairName, ORDER_TYPE_KEYS, openFillKey, sideColor, stateKey } from './format.tsx';
import { type OrdersTableProps, Trigger } from './OrdersTable.tsx';

/**
 * Orders on a phone (issue 32): the spec's columns folded into three, each two lines high (pair, side and type
 * over the date; price over the trigger; filled over the volume), and the action last, so that Cancel is on
 * screen without a sideways scroll.
 */
export function CompactOrdersTable({ orders, markets, open, action, testId }: OrdersTableProps) {
  const { t } = useTranslation();
  const pair = (id: string) => marketPairName(markets, id);
  const dim = (text: ReactNode) => (
    <Text size="xs" c="dimmed" className="tabular">
      {text}
    </Text>
  );
  return (
    <>
      <Table fz="xs" striped data-testid={testId} layout="fixed">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('trading.orders.type')}</Table.Th>
            <Table.Th ta="right" w={88}>
              {t('trading.orders.price')}
            </Table.Th>
            <Table.Th ta="right" w={76}>
              {t('trading.orders.filled')}
            </Table.Th>
            {action && <Table.Th w={72} />}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {orders.map((o) => (
            <Table.Tr key={o.id} data-order-id={o.id} data-state={o.state}>
              <Table.Td>
                <Text size="xs" fw={600}>
                  {pair(o.market)}{' '}
                  <Text span inherit c={sideColor(o.side)}>
                    {t(`trading.side.${o.side}`)}
                  </Text>
                </Text>
                {dim(t(ORDER_TYPE_KEYS[o.ord_type] ?? 'trading.type.limit'))}
                {dim(shortDate(o.created_at))}
              </Table.Td>
              <Table.Td ta="right" className="tabular">
                <Text size="xs">{o.price ?? t('trading.type.market')}</Text>
                {o.stop_price && (
                  <Text size="xs" c="dimmed" className="tabular" data-testid="order-trigger">
                    <Trigger order={o} />
                  </Text>
                )}
              </Table.Td>
              <Table.Td ta="right" className="tabular">
                <Text size="xs">{`${o.executed_volume} / ${o.origin_volume}`}</Text>
                {dim(t(open ? openFillKey(o) : stateKey(o.state)))}
              </Table.Td>
              {action && <Table.Td ta="right">{action(o)}</Table.Td>}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {orders.length === 0 && (
        <Text size="sm" c="dimmed" ta="center" py="sm">
          {t('trading.empty')}
        </Text>
      )}
    </>
  );
}
