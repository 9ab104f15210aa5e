import {
  currencyListQuery,
  currencyResponse,
  depthResponse,
  klineResponse,
  MARKET_DATA_ERRORS,
  marketResponse,
  orderBookResponse,
  type PublicTrade,
  publicMarketsQuery,
  publicTradeResponse,
  publicWithdrawLimitResponse,
  tickerResponse,
  tradingFeeResponse,
  tradingLevelResponse,
  withdrawLimitListQuery,
} from '@exchange/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../http/errors.ts';
import { docs } from '../../http/openapi.ts';
import { paged } from '../../http/paging.ts';
import { currencyParam, findCurrency, listCurrencies } from './currencies.ts';
import type { MarketDataRouteDeps } from './deps.ts';
import { KLINE_PERIODS, queryKlines, trim, wireCandle } from './klines.ts';
import { openOrderBook } from './order-book.ts';
import { listPublicMarkets, recentTrades, tradingFees, tradingLevels } from './repository.ts';
import { listPublicWithdrawLimits } from './withdraw-limits.ts';

const marketParam = z.object({ id: z.string().max(20) });
const depthQuery = z.object({ limit: z.coerce.number().int().min(1).max(1000).default(300) });
const tradesQuery = z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100) });
const orderBookQuery = z.object({
  asks_limit: z.coerce.number().int().min(1).max(200).default(20),
  bids_limit: z.coerce.number().int().min(1).max(200).default(20),
});
const klineQuery = z.object({
  period: z.coerce
    .number({ error: MARKET_DATA_ERRORS.invalidPeriod })
    .int()
    .refine((p) => p in KLINE_PERIODS, MARKET_DATA_ERRORS.invalidPeriod)
    .default(1),
  time_from: z.coerce.number().int().min(0).optional(),
  time_to: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(10_000).default(30),
});

/** Peatio `public/*`: markets, tickers, depth, public trades, k-lines, currencies and fees. No login needed. */
export async function marketDataRoutes(app: FastifyInstance, deps: MarketDataRouteDeps): Promise<void> {
  // 422 as Peatio answers it: there the market is a parameter its validation refuses, not a missing resource.
  const market = (id: string) => {
    if (!deps.core.markets.has(id)) throw new AppError(422, [MARKET_DATA_ERRORS.marketNotFound]);
    return id;
  };

  app.get(
    '/public/markets',
    docs('Markets, paged (Total, Page, Per-Page), by base or quote currency', {
      query: publicMarketsQuery,
      response: z.array(marketResponse),
      paged: true,
    }),
    async (request, reply) => {
      const q = publicMarketsQuery.parse(request.query);
      const { items, total } = await listPublicMarkets(
        deps.db,
        q.base_unit?.toLowerCase() ?? null,
        q.quote_unit?.toLowerCase() ?? null,
        q.limit,
        (q.page - 1) * q.limit,
      );
      paged(reply, total, q.page, q.limit);
      return items;
    },
  );

  app.get(
    '/public/markets/tickers',
    docs('Tickers of every market, by market id', { response: z.record(z.string(), tickerResponse) }),
    async () => deps.marketData.tickers(),
  );

  app.get(
    '/public/markets/:id/tickers',
    docs('Ticker of a market', { params: marketParam, response: tickerResponse }),
    async (request) => {
      const id = market(marketParam.parse(request.params).id);
      return (await deps.marketData.tickers())[id];
    },
  );

  app.get(
    '/public/markets/:id/depth',
    docs('Depth: price levels, asks ascending, bids descending', {
      params: marketParam,
      query: depthQuery,
      response: depthResponse,
    }),
    async (request) => {
      const id = market(marketParam.parse(request.params).id);
      const depth = deps.marketData.depth(id, depthQuery.parse(request.query).limit);
      return { timestamp: depth?.timestamp, asks: depth?.asks ?? [], bids: depth?.bids ?? [] };
    },
  );

  app.get(
    '/public/markets/:id/order-book',
    docs('Resting orders per side, best first', {
      params: marketParam,
      query: orderBookQuery,
      response: orderBookResponse,
    }),
    async (request) => {
      const id = market(marketParam.parse(request.params).id);
      const q = orderBookQuery.parse(request.query);
      // The tables follow the core's journal: wait until they hold every order answered before this request.
      await deps.core.sequencer.settled();
      return openOrderBook(deps.db, deps.core.units, id, q.asks_limit, q.bids_limit);
    },
  );

  app.get(
    '/public/markets/:id/trades',
    docs('Recent public trades', {
      params: marketParam,
      query: tradesQuery,
      response: z.array(publicTradeResponse),
    }),
    async (request) => {
      const id = market(marketParam.parse(request.params).id);
      await deps.core.sequencer.settled();
      const rows = await recentTrades(deps.db, id, tradesQuery.parse(request.query).limit);
      // As the `{market}.trades` stream has them: tid, date in Unix seconds, type = the taker's side.
      return rows.map(
        (r): PublicTrade => ({
          ...r,
          id: Number(r.id),
          tid: Number(r.id),
          created_at: r.created_at.toISOString(),
          date: Math.floor(r.created_at.getTime() / 1000),
          type: r.taker_type,
        }),
      );
    },
  );

  app.get(
    '/public/markets/:id/k-line',
    docs('Candles [t, o, h, l, c, v] as numbers', {
      params: marketParam,
      query: klineQuery,
      response: klineResponse,
    }),
    async (request) => {
      const id = market(marketParam.parse(request.params).id);
      const q = klineQuery.parse(request.query);
      await deps.core.sequencer.settled();
      return (await queryKlines(deps.db, id, q.period, q.time_from, q.time_to, q.limit)).map(wireCandle);
    },
  );

  app.get(
    '/public/currencies',
    docs('Currencies with their networks, paged (Total, Page, Per-Page), by type or search', {
      query: currencyListQuery,
      response: z.array(currencyResponse),
      paged: true,
    }),
    async (request, reply) => {
      const q = currencyListQuery.parse(request.query);
      const { items, total } = await listCurrencies(deps, q);
      paged(reply, total, q.page, q.limit);
      return items;
    },
  );
  app.get(
    '/public/withdraw_limits',
    docs('Withdrawal limits per user level and currency, paged (Peatio shape; group is always any)', {
      query: withdrawLimitListQuery,
      response: z.array(publicWithdrawLimitResponse),
      paged: true,
    }),
    async (request, reply) => {
      const q = withdrawLimitListQuery.parse(request.query);
      const { items, total } = await listPublicWithdrawLimits(deps.db, q);
      paged(reply, total, q.page, q.limit);
      return items;
    },
  );
  app.get(
    '/public/currencies/:id',
    docs('One currency, as an item of /public/currencies (422 public.currency.doesnt_exist)', {
      params: currencyParam,
      response: currencyResponse,
    }),
    async (request) => findCurrency(deps, currencyParam.parse(request.params).id),
  );

  app.get(
    '/public/trading_fees',
    docs('Trading fees', { response: z.array(tradingFeeResponse) }),
    async () => {
      const rows = await tradingFees(deps.db);
      return rows.map((r) => ({ ...r, id: Number(r.id), maker: trim(r.maker), taker: trim(r.taker) }));
    },
  );

  app.get(
    '/public/trading_level',
    docs('Fees per trading level', { response: z.array(tradingLevelResponse) }),
    async () => tradingLevels(deps.db),
  );
}
