import {
  type OrderCurrencies,
  type TickerEvent,
  type TickerFigures,
  tickerFromEvent,
} from '@exchange/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiPage } from '../../api/client.ts';
import { useRanger } from '../../api/ranger.ts';
import { type FeeRates, type FeeRow, userFeeRates } from './fees.ts';

/** A market as `GET /public/markets` returns it. */
export interface Market {
  id: string;
  name: string;
  base_unit: string;
  quote_unit: string;
  min_price: string;
  max_price: string;
  min_amount: string;
  amount_precision: number;
  price_precision: number;
  state: string;
}

/** A ticker's figures (docs/trading.md#data Ticker); the fields after `price_change_percent` are optional here. */
export type Ticker = Pick<
  TickerFigures,
  'low' | 'high' | 'open' | 'last' | 'volume' | 'amount' | 'avg_price' | 'price_change_percent'
> &
  Partial<TickerFigures>;
export type Tickers = Record<string, { at: number; ticker: Ticker }>;

/** An order entity (docs/trading.md#data). */
export interface Order extends Partial<OrderCurrencies> {
  id: number;
  uuid: string;
  market: string;
  side: 'buy' | 'sell';
  ord_type: string;
  state: string;
  price: string | null;
  stop_price: string | null;
  avg_price: string;
  origin_volume: string;
  remaining_volume: string;
  executed_volume: string;
  trades_count: number;
  created_at: string;
  updated_at: string;
  /** Only in the answer to a placement the engine cancelled at once. */
  cancel_reason?: 'user' | 'self_trade' | 'unfilled' | 'budget' | 'fill_or_kill' | 'post_only';
}

/** One of the user's trades (trade history). */
export interface UserTrade {
  id: number;
  created_at: string;
  market: string;
  side: string;
  price: string;
  amount: string;
  total: string;
  fee_amount: string;
  fee_currency: string;
}

export interface Balance {
  currency: string;
  balance: string;
  locked: string;
}

export const KEYS = {
  markets: ['trading', 'markets'] as const,
  tickers: ['trading', 'tickers'] as const,
  balances: ['trading', 'balances'] as const,
  orders: ['trading', 'orders'] as const,
  trades: ['trading', 'trades'] as const,
};

export function useMarkets() {
  return useQuery({
    queryKey: KEYS.markets,
    queryFn: () => api<Market[]>('peatio', '/public/markets'),
    staleTime: 60_000,
  });
}

/** Tickers of every market, kept live from `global.tickers`. */
export function useTickers() {
  const client = useQueryClient();
  // The stream is Peatio's flat shape per market; the query keeps the REST call's {at, ticker}.
  useRanger('public', ['global.tickers'], (payload) => {
    if (!payload || typeof payload !== 'object') return;
    const tickers: Tickers = {};
    for (const [market, event] of Object.entries(payload as Record<string, TickerEvent>))
      tickers[market] = tickerFromEvent(event);
    client.setQueryData(KEYS.tickers, tickers);
  });
  return useQuery({
    queryKey: KEYS.tickers,
    queryFn: () => api<Tickers>('peatio', '/public/markets/tickers'),
    staleTime: 10_000,
  });
}

/** The user's balances, kept live from the private `balances` stream (`{"<cur>": [balance, locked]}`). */
export function useBalances() {
  const client = useQueryClient();
  useRanger('private', ['balances'], (payload) => {
    const changes = payload as Record<string, [string, string]>;
    // A fetch that started before this change would answer older figures: it must not overwrite them.
    void client.cancelQueries({ queryKey: KEYS.balances });
    client.setQueryData<Balance[]>(KEYS.balances, (old) => {
      const list = [...(old ?? [])];
      for (const [currency, [balance, locked]] of Object.entries(changes)) {
        const at = list.findIndex((b) => b.currency === currency);
        if (at >= 0) list[at] = { currency, balance, locked };
        else list.push({ currency, balance, locked });
      }
      return list;
    });
  });
  return useQuery({
    queryKey: KEYS.balances,
    queryFn: () => api<Balance[]>('peatio', '/account/balances'),
  });
}

/**
 * The user's maker and taker rates on a market, from `/public/trading_fees` as the engine resolves them;
 * undefined until the schedule has arrived.
 */
export function useFeeRates(market: string): FeeRates | undefined {
  const { data } = useQuery({
    queryKey: ['trading', 'fees'],
    queryFn: () => api<FeeRow[]>('peatio', '/public/trading_fees'),
    staleTime: 300_000,
  });
  return data ? userFeeRates(data, market) : undefined;
}

export interface OrderFilters {
  market?: string;
  states?: string[];
  side?: string;
  ordType?: string;
  page: number;
  limit: number;
}

/** The path of `GET /market/orders` with the filters (`state` may repeat). */
function ordersPath(f: OrderFilters): string {
  const params = new URLSearchParams();
  if (f.market) params.set('market', f.market);
  for (const state of f.states ?? []) params.append('state', state);
  if (f.side) params.set('type', f.side);
  if (f.ordType) params.set('ord_type', f.ordType);
  params.set('page', String(f.page));
  params.set('limit', String(f.limit));
  return `/market/orders?${params.toString()}`;
}

export function useOrders(filters: OrderFilters) {
  return useQuery({
    queryKey: [...KEYS.orders, filters],
    queryFn: () => apiPage<Order>('peatio', ordersPath(filters)),
  });
}

export function useUserTrades(market: string | undefined, page: number, limit: number) {
  return useQuery({
    queryKey: [...KEYS.trades, market, page, limit],
    queryFn: () => apiPage<UserTrade>('peatio', '/market/trades', { query: { market, page, limit } }),
  });
}

/** Refreshes order and trade lists when the private `order` and `trade` streams report a change. */
export function useLiveOrders() {
  const client = useQueryClient();
  useRanger('private', ['order', 'trade'], () => {
    void client.invalidateQueries({ queryKey: KEYS.orders });
    void client.invalidateQueries({ queryKey: KEYS.trades });
  });
}
