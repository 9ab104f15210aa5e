import { Box, Stack } from '@mantine/core';
import { MarketList } from './MarketList.tsx';
import { OrderBook } from './OrderBook.tsx';
import { OrderForm, VisitorOrderForm } from './OrderForm.tsx';
import { OrdersPanel } from './OrdersPanel.tsx';
import { PriceChart, SymbolNotFound } from './PriceChart.tsx';
import { RecentTrades } from './RecentTrades.tsx';
import { TickerHeader } from './TickerHeader.tsx';
import type { TradingView } from './trading-view.ts';

/** Book levels per side on a desktop: the book stands as tall as the chart beside it. */
const DESKTOP_DEPTH = 8;

/**
 * The desktop layout (trading.css): markets and recent trades on the left, the chart over the orders in the middle,
 * the book over the order form on the right, so that the open orders show without scrolling at 1440×900. Narrower
 * windows stack the three columns, chart first.
 */
export function DesktopTrading({ view }: { view: TradingView }) {
  const { market, tickers } = view;
  const ticker = market && tickers?.[market.id]?.ticker;
  return (
    <Stack gap="xs" p="xs">
      {market && <TickerHeader market={market} ticker={ticker} />}
      {/* In the tab order the orders come after the form (an order placed, its Cancel is a few Tabs on); the grid
          puts them under the chart. */}
      <Box className="trading-grid">
        <Box className="trading-column trading-side">
          <MarketList markets={view.markets} tickers={tickers} current={view.id} />
          {market && <RecentTrades key={`trades-${market.id}`} market={market} />}
        </Box>
        <Box className="trading-chart">
          {market ? (
            <PriceChart key={market.id} market={market} book={view.book} height={300} />
          ) : (
            <SymbolNotFound />
          )}
        </Box>
        <Box className="trading-column trading-right">
          {market && (
            <OrderBook
              key={`book-${market.id}`}
              market={market}
              book={view.book}
              onPick={view.pick}
              depth={DESKTOP_DEPTH}
            />
          )}
          {market &&
            (view.logged ? (
              <OrderForm
                market={market}
                lastPrice={ticker?.last ?? '0'}
                best={{ ask: ticker?.sell, bid: ticker?.buy }}
                picked={view.picked}
              />
            ) : (
              <VisitorOrderForm />
            ))}
        </Box>
        {view.logged && (
          <Box className="trading-orders">
            <OrdersPanel markets={view.markets} tickers={tickers} />
          </Box>
        )}
      </Box>
    </Stack>
  );
}
