import { Box, Button, Drawer, Group, SegmentedControl, Stack, Tabs } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MarketList } from './MarketList.tsx';
import { OrderBook } from './OrderBook.tsx';
import { OrderForm, VisitorOrderForm } from './OrderForm.tsx';
import { OrdersPanel } from './OrdersPanel.tsx';
import { PriceChart, SymbolNotFound } from './PriceChart.tsx';
import { RecentTrades } from './RecentTrades.tsx';
import { TickerHeader } from './TickerHeader.tsx';
import type { TradingView } from './trading-view.ts';

type Side = 'buy' | 'sell';

/**
 * The phone layout (issue 32): the ticker, then one panel at a time in tabs (chart, book, trades, orders,
 * markets), and Buy and Sell buttons fixed at the bottom that open the order form in a bottom sheet, on the side
 * chosen. A level picked in the book opens the sheet with its price.
 */
export function PhoneTrading({ view }: { view: TradingView }) {
  const { t } = useTranslation();
  const { market, tickers } = view;
  const ticker = market && tickers?.[market.id]?.ticker;
  const [tab, setTab] = useState<string | null>('chart');
  const [sheet, setSheet] = useState<Side | null>(null);
  const [side, setSide] = useState<Side>('buy');
  const open = (next: Side) => {
    setSide(next);
    setSheet(next);
  };
  const base = market?.base_unit.toUpperCase() ?? '';

  return (
    <Stack gap="xs" p="xs" data-testid="phone-trading">
      {market && <TickerHeader market={market} ticker={ticker} />}
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List grow aria-label={t('trading.phone.panels')}>
          <Tabs.Tab value="chart" px={6}>
            {t('trading.phone.chart')}
          </Tabs.Tab>
          <Tabs.Tab value="book" px={6}>
            {t('trading.phone.book')}
          </Tabs.Tab>
          <Tabs.Tab value="trades" px={6}>
            {t('trading.phone.trades')}
          </Tabs.Tab>
          {view.logged && (
            <Tabs.Tab value="orders" px={6}>
              {t('trading.phone.orders')}
            </Tabs.Tab>
          )}
          <Tabs.Tab value="markets" px={6}>
            {t('trading.phone.markets')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="chart" pt="xs">
          {market ? <PriceChart market={market} book={view.book} height={280} /> : <SymbolNotFound />}
        </Tabs.Panel>
        {market && (
          <Tabs.Panel value="book" pt="xs">
            <OrderBook
              market={market}
              book={view.book}
              onPick={(pick) => {
                view.pick(pick);
                // Buying takes the asks, selling the bids: the sheet opens on the side the picked level serves.
                open(pick.side === 'bid' ? 'sell' : 'buy');
              }}
            />
          </Tabs.Panel>
        )}
        {market && (
          <Tabs.Panel value="trades" pt="xs">
            <RecentTrades market={market} />
          </Tabs.Panel>
        )}
        {view.logged && (
          <Tabs.Panel value="orders" pt="xs">
            <OrdersPanel markets={view.markets} tickers={tickers} compact />
          </Tabs.Panel>
        )}
        <Tabs.Panel value="markets" pt="xs">
          <MarketList markets={view.markets} tickers={tickers} current={view.id} maxHeight={520} />
        </Tabs.Panel>
      </Tabs>
      {market && (
        <Group className="phone-trade-bar" grow gap="xs" p="xs">
          <Button color="teal" onClick={() => open('buy')} data-testid="phone-buy">
            {t('trading.form.buy', { unit: base })}
          </Button>
          <Button color="red" onClick={() => open('sell')} data-testid="phone-sell">
            {t('trading.form.sell', { unit: base })}
          </Button>
        </Group>
      )}
      {market && (
        <Drawer
          opened={sheet !== null}
          onClose={() => setSheet(null)}
          position="bottom"
          size="auto"
          styles={{ content: { height: 'auto', maxHeight: '92dvh' } }}
          title={market.name.toUpperCase()}
          classNames={{ content: 'order-sheet' }}
          closeButtonProps={{ 'aria-label': t('common.close') }}
          data-side={side}
        >
          <Box className="order-sheet-body" data-side={side} data-testid="order-sheet">
            {view.logged ? (
              <>
                <SegmentedControl
                  fullWidth
                  mb="xs"
                  value={side}
                  onChange={(v) => setSide(v === 'sell' ? 'sell' : 'buy')}
                  aria-label={t('trading.phone.side')}
                  data={[
                    { value: 'buy', label: t('trading.side.buy') },
                    { value: 'sell', label: t('trading.side.sell') },
                  ]}
                />
                <OrderForm
                  market={market}
                  lastPrice={ticker?.last ?? '0'}
                  best={{ ask: ticker?.sell, bid: ticker?.buy }}
                  picked={view.picked}
                />
              </>
            ) : (
              <VisitorOrderForm />
            )}
          </Box>
        </Drawer>
      )}
    </Stack>
  );
}
