import { LIMITS } from '@exchange/shared';
import { Container, Group, Paper, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Amount, longDate } from '../../components/format.tsx';
import { type Market, useLiveOrders, useMarkets, useOrders, useUserTrades } from './api.ts';
import { ORDER_TYPE_KEYS, pairName, sideColor } from './format.tsx';
import { OrdersTable, Pager } from './OrdersTable.tsx';

const LIMIT = LIMITS.tablePageLimit;
/** The "all" choice of a filter. */
const ALL = 'all';
const some = (v: string) => (v === ALL ? undefined : v);
const STATES = ['pending', 'wait', 'done', 'cancel', 'reject'];
const OPEN_STATES = ['wait', 'pending'];

function pairOptions(markets: Market[] | undefined, all: string) {
  return [
    { value: ALL, label: all },
    ...(markets ?? []).map((m) => ({ value: m.id, label: pairName(m.base_unit, m.quote_unit) })),
  ];
}

/**
 * Orders still on the book (docs/trading.md#screens "Open Orders"). Here a partly filled order is `pending` and still open,
 * so both states count, as on the trading screen.
 */
function OpenOrders({ markets }: { markets: Market[] | undefined }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const { data } = useOrders({ states: OPEN_STATES, page, limit: LIMIT });
  return (
    <Paper withBorder p="md">
      <Stack>
        <Title order={3}>{t('trading.openOrders.title')}</Title>
        <OrdersTable orders={data?.items ?? []} markets={markets} open testId="history-open-orders" />
        <Pager total={data?.total ?? 0} page={page} onChange={setPage} />
      </Stack>
    </Paper>
  );
}

/** The user's trades: date, pair, side, price, amount, total, fee. */
function TradeHistory({ markets }: { markets: Market[] | undefined }) {
  const { t } = useTranslation();
  const [market, setMarket] = useState(ALL);
  const [page, setPage] = useState(1);
  const { data } = useUserTrades(some(market), page, LIMIT);
  const trades = data?.items ?? [];
  const pair = (id: string) => pairOptions(markets, ALL).find((o) => o.value === id)?.label ?? id;
  return (
    <Paper withBorder p="md">
      <Stack>
        <Group justify="space-between">
          <Title order={3}>{t('trading.tradeHistory.title')}</Title>
          <Select
            size="xs"
            label={t('trading.filter.pair')}
            data={pairOptions(markets, t('trading.filter.all'))}
            value={market}
            onChange={(v) => {
              setMarket(v ?? ALL);
              setPage(1);
            }}
            allowDeselect={false}
          />
        </Group>
        <Table.ScrollContainer minWidth={700}>
          <Table fz="xs" striped data-testid="trade-history">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('trading.orders.date')}</Table.Th>
                <Table.Th>{t('trading.orders.pair')}</Table.Th>
                <Table.Th>{t('trading.filter.side')}</Table.Th>
                <Table.Th>{t('trading.orders.price')}</Table.Th>
                <Table.Th>{t('trading.tradeHistory.amount')}</Table.Th>
                <Table.Th>{t('trading.form.total')}</Table.Th>
                <Table.Th>{t('trading.form.fee')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {trades.map((tr) => (
                <Table.Tr key={`${tr.id}-${tr.side}`}>
                  <Table.Td>{longDate(tr.created_at)}</Table.Td>
                  <Table.Td>{pair(tr.market)}</Table.Td>
                  <Table.Td>
                    <Text span inherit c={sideColor(tr.side)}>
                      {t(`trading.side.${tr.side}`)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Amount value={tr.price} />
                  </Table.Td>
                  <Table.Td>
                    <Amount value={tr.amount} />
                  </Table.Td>
                  <Table.Td>
                    <Amount value={tr.total} />
                  </Table.Td>
                  <Table.Td>
                    <Amount value={tr.fee_amount} /> {tr.fee_currency?.toUpperCase()}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {trades.length === 0 && (
            <Text size="sm" c="dimmed" ta="center" py="sm">
              {t('trading.empty')}
            </Text>
          )}
        </Table.ScrollContainer>
        <Pager total={data?.total ?? 0} page={page} onChange={setPage} />
      </Stack>
    </Paper>
  );
}

/** `/history/orders`: orders filtered by pair, state, side and type, then open orders and the trade history. */
export function OrderHistoryPage() {
  const { t } = useTranslation();
  const { data: markets } = useMarkets();
  useLiveOrders();
  const [market, setMarket] = useState(ALL);
  const [state, setState] = useState(ALL);
  const [side, setSide] = useState(ALL);
  const [ordType, setOrdType] = useState(ALL);
  const [page, setPage] = useState(1);
  const { data } = useOrders({
    market: some(market),
    states: state === ALL ? undefined : [state],
    side: some(side),
    ordType: some(ordType),
    page,
    limit: LIMIT,
  });
  const filter = (
    label: string,
    value: string,
    set: (v: string) => void,
    options: { value: string; label: string }[],
  ) => (
    <Select
      size="xs"
      label={label}
      data={options}
      value={value}
      allowDeselect={false}
      onChange={(v) => {
        set(v ?? ALL);
        setPage(1);
      }}
    />
  );
  const all = { value: ALL, label: t('trading.filter.all') };

  return (
    <Container size="xl" py="md">
      <Stack>
        <Paper withBorder p="md">
          <Stack>
            <Title order={2}>{t('trading.orderHistory.title')}</Title>
            <Group align="flex-end">
              {filter(
                t('trading.filter.pair'),
                market,
                setMarket,
                pairOptions(markets, t('trading.filter.all')),
              )}
              {filter(t('trading.filter.state'), state, setState, [
                all,
                ...STATES.map((s) => ({ value: s, label: t(`trading.state.${s}`) })),
              ])}
              {filter(t('trading.filter.side'), side, setSide, [
                all,
                { value: 'buy', label: t('trading.side.buy') },
                { value: 'sell', label: t('trading.side.sell') },
              ])}
              {filter(t('trading.filter.type'), ordType, setOrdType, [
                all,
                ...Object.entries(ORDER_TYPE_KEYS).map(([value, key]) => ({ value, label: t(key) })),
              ])}
            </Group>
            <OrdersTable orders={data?.items ?? []} markets={markets} testId="orders-history" />
            <Pager total={data?.total ?? 0} page={page} onChange={setPage} />
          </Stack>
        </Paper>
        <OpenOrders markets={markets} />
        <TradeHistory markets={markets} />
      </Stack>
    </Container>
  );
}
