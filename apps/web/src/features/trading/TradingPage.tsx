import { DEFAULT_MARKET } from '@exchange/shared';
import { Grid, LoadingOverlay, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { isLoggedIn, useCurrentUser } from '../../api/user.ts';
import { useMarkets, useTickers } from './api.ts';
import type { BookPick } from './book-view.ts';
import { MarketList } from './MarketList.tsx';
import { OrderBook } from './OrderBook.tsx';
import { OrderForm, VisitorOrderForm } from './OrderForm.tsx';
import { OrdersPanel } from './OrdersPanel.tsx';
import { PriceChart, SymbolNotFound } from './PriceChart.tsx';
import { RecentTrades } from './RecentTrades.tsx';
import { TickerHeader } from './TickerHeader.tsx';
import { useOrderBook } from './useOrderBook.ts';
import './trading.css';

/**
 * The trading screen (`/trade/:market?`, default ethbtc): markets, chart, order form, book, trades, orders. Public
 * (spec §6): a visitor sees the market data and a prompt to log in instead of the order form and orders.
 */
export function TradingPage() {
  const { t } = useTranslation();
  const id = (useParams().market ?? DEFAULT_MARKET).toLowerCase();
  const markets = useMarkets();
  const tickers = useTickers();
  const user = useCurrentUser();
  // Until the user is known no private call is made: a visitor's would be refused.
  const logged = isLoggedIn(user.data);
  const book = useOrderBook(id);
  // Kept with its market: a level picked in one book must not fill the form of the next market opened.
  const [picked, setPicked] = useState<{ market: string; pick: BookPick }>();
  const pick = (next: BookPick) => setPicked({ market: id, pick: next });
  if (markets.isPending || user.isPending) return <LoadingOverlay visible aria-label={t('loading.label')} />;
  const market = markets.data?.find((m) => m.id === id);
  const ticker = tickers.data?.[id]?.ticker;

  return (
    <Stack gap="xs" p="xs">
      {market && <TickerHeader market={market} ticker={ticker} />}
      <Grid gutter="xs">
        <Grid.Col span={{ base: 12, md: 3 }}>
          <MarketList markets={markets.data ?? []} tickers={tickers.data} current={id} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Stack gap="xs">
            {market ? (
              <PriceChart key={market.id} market={market.id} pricePrecision={market.price_precision} />
            ) : (
              <SymbolNotFound />
            )}
            {market &&
              (logged ? (
                <OrderForm
                  market={market}
                  lastPrice={ticker?.last ?? '0'}
                  best={{ ask: ticker?.sell, bid: ticker?.buy }}
                  picked={picked?.market === id ? picked.pick : undefined}
                />
              ) : (
                <VisitorOrderForm />
              ))}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 3 }}>
          {market && (
            <Stack gap="xs">
              <OrderBook key={`book-${market.id}`} market={market} book={book} onPick={pick} />
              <RecentTrades key={`trades-${market.id}`} market={market} />
            </Stack>
          )}
        </Grid.Col>
      </Grid>
      {logged && <OrdersPanel markets={markets.data} />}
    </Stack>
  );
}
