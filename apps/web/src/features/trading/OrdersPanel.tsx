import { LIMITS } from '@exchange/shared';
import { Anchor, Button, Group, Paper, Tabs, Text } from '@mantine/core';
import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError, api, type Page } from '../../api/client.ts';
import { toast } from '../../app/toast.ts';
import { KEYS, type Market, type Order, type Tickers, useLiveOrders, useOrders } from './api.ts';
import { CompactOrdersTable } from './CompactOrdersTable.tsx';
import { OrdersTable, Pager } from './OrdersTable.tsx';
import { TradingBalances } from './TradingBalances.tsx';

/** Open: `wait`, and `pending` (partly filled, still on the book); paged (docs/trading.md#screens, #constants). */
const OPEN_STATES = ['wait', 'pending'];
const HISTORY = { states: ['done', 'cancel', 'reject'], page: 1, limit: 10 };

/**
 * Open orders (per-row Cancel, Cancel All), the last 10 closed orders and the balances (issue 32), under the
 * trading view.
 */
export function OrdersPanel({
  markets,
  tickers,
  compact,
}: {
  markets: Market[] | undefined;
  tickers: Tickers | undefined;
  /** A phone's narrow tables: three folded columns and the action, never a sideways scroll. */
  compact?: boolean;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  useLiveOrders();
  const [page, setPage] = useState(1);
  const OPEN = { states: OPEN_STATES, page, limit: LIMITS.tablePageLimit };
  const open = useOrders(OPEN);
  const history = useOrders(HISTORY);
  const [busy, setBusy] = useState<number | 'all' | null>(null);
  const openKey: QueryKey = [...KEYS.orders, OPEN];

  const cancel = async (target: Order | 'all') => {
    setBusy(target === 'all' ? 'all' : target.id);
    try {
      if (target === 'all') await api('peatio', '/market/orders/cancel', { method: 'POST', body: {} });
      else await api('peatio', `/market/orders/${target.id}/cancel`, { method: 'POST' });
      client.setQueryData<Page<Order>>(
        openKey,
        (old) =>
          old && {
            ...old,
            items: target === 'all' ? [] : old.items.filter((o) => o.id !== target.id),
            total: target === 'all' ? 0 : old.total - 1,
          },
      );
      if (target === 'all') setPage(1);
      toast.success(t('trading.orders.cancelled'));
      void client.invalidateQueries({ queryKey: KEYS.orders });
    } catch (err) {
      toast.error(err instanceof ApiError ? err.message : t('server.error'));
    } finally {
      setBusy(null);
    }
  };

  const action = (o: Order) => {
    if (o.state === 'cancel') return t('trading.orders.cancelledLabel');
    if (o.state === 'done') return t('trading.orders.completed');
    return (
      <Button size="compact-xs" variant="light" color="red" loading={busy === o.id} onClick={() => cancel(o)}>
        {t('trading.orders.cancel')}
      </Button>
    );
  };
  const Orders = compact ? CompactOrdersTable : OrdersTable;
  const openOrders = open.data?.items ?? [];
  const openTotal = open.data?.total ?? openOrders.length;
  // A page emptied by cancels or fills goes back to the last page there is.
  const lastPage = Math.max(1, Math.ceil(openTotal / LIMITS.tablePageLimit));
  if (open.data && page > lastPage) setPage(lastPage);

  return (
    <Paper withBorder p="xs">
      <Tabs defaultValue="open">
        <Tabs.List>
          <Tabs.Tab value="open">{t('trading.orders.open', { count: openTotal })}</Tabs.Tab>
          <Tabs.Tab value="history">{t('trading.orders.history')}</Tabs.Tab>
          <Tabs.Tab value="balances">{t('trading.balances.tab')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="open" pt="xs">
          <Group justify="flex-end" mb={4}>
            <Button
              size="compact-xs"
              color="red"
              variant="outline"
              disabled={openOrders.length === 0}
              loading={busy === 'all'}
              onClick={() => cancel('all')}
            >
              {t('trading.orders.cancelAll')}
            </Button>
          </Group>
          <Orders orders={openOrders} markets={markets} open action={action} testId="open-orders" />
          <Pager total={openTotal} page={page} onChange={setPage} />
        </Tabs.Panel>
        <Tabs.Panel value="history" pt="xs">
          <Orders orders={history.data?.items ?? []} markets={markets} testId="order-history" />
          <Text ta="right" size="xs" mt={4}>
            <Anchor component={Link} to="/history/orders">
              {t('trading.orders.viewAll')}
            </Anchor>
          </Text>
        </Tabs.Panel>
        <Tabs.Panel value="balances" pt="xs">
          <TradingBalances markets={markets ?? []} tickers={tickers} />
        </Tabs.Panel>
      </Tabs>
    </Paper>
  );
}
