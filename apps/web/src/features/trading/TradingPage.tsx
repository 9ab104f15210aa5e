import { DEFAULT_MARKET } from '@exchange/shared';
import { LoadingOverlay } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { isLoggedIn, useCurrentUser } from '../../api/user.ts';
import { useMarkets, useTickers } from './api.ts';
import type { BookPick } from './book-view.ts';
import { DesktopTrading } from './DesktopTrading.tsx';
import { PhoneTrading } from './PhoneTrading.tsx';
import type { TradingView } from './trading-view.ts';
import { useOrderBook } from './useOrderBook.ts';
import './trading.css';

/** Below this width the screen is laid out for a phone: one panel at a time in tabs, the form in a sheet. */
const PHONE_QUERY = '(max-width: 47.99em)';

/**
 * The trading screen (`/trade/:market?`, default ethbtc): markets, chart, order form, book, trades, orders. Public
 * (docs/trading.md#permissions): a visitor sees the market data and a prompt to log in instead of the order form and orders.
 */
export function TradingPage() {
  const { t } = useTranslation();
  const id = (useParams().market ?? DEFAULT_MARKET).toLowerCase();
  const markets = useMarkets();
  const tickers = useTickers();
  const user = useCurrentUser();
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  const book = useOrderBook(id);
  // Kept with its market: a level picked in one book must not fill the form of the next market opened.
  const [picked, setPicked] = useState<{ market: string; pick: BookPick }>();
  if (markets.isPending || user.isPending) return <LoadingOverlay visible aria-label={t('loading.label')} />;
  const view: TradingView = {
    id,
    markets: markets.data ?? [],
    market: markets.data?.find((m) => m.id === id),
    tickers: tickers.data,
    // Until the user is known no private call is made: a visitor's would be refused.
    logged: isLoggedIn(user.data),
    book,
    picked: picked?.market === id ? picked.pick : undefined,
    pick: (next) => setPicked({ market: id, pick: next }),
  };
  return phone ? <PhoneTrading view={view} /> : <DesktopTrading view={view} />;
}
