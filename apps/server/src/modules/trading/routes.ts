import {
  balanceResponse,
  balancesQuery,
  cancelAllSchema,
  ERRORS,
  listOrdersQuery,
  ORDER_ERRORS,
  orderResponse,
  orderWithTradesResponse,
  placeOrderSchema,
  userTradeResponse,
} from '@exchange/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { authUser, requireAuth } from '../../http/auth.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { docs } from '../../http/openapi.ts';
import { paged } from '../../http/paging.ts';
import { privateStreamKey } from '../ranger/streams.ts';
import { accountDepositAddresses } from '../wallet/addresses.ts';
import { usdtPriceText } from '../wallet/valuation.ts';
import type { TradingRouteDeps } from './deps.ts';
import {
  findOwnOrder,
  listBalances,
  listFavourites,
  listOrders,
  listUserTrades,
  orderTrades,
  setFavourite,
} from './repository.ts';
import { cancelAll, cancelOrder, placeOrder } from './service.ts';

const pageQuery = z.object({
  market: z.string().max(20).optional(),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

const favouriteSchema = z.object({
  market_id: z.string().max(20),
  /** 1 or true marks the market a favourite, 0 or false removes it (the web keeps isFav as 0/1). */
  is_fav: z
    .union([z.boolean(), z.literal(0), z.literal(1)])
    .transform(Boolean)
    .default(true),
});

const userId = (request: Parameters<typeof authUser>[0]) => Number(authUser(request).id);

/** Peatio `market/*` and `account/balances`: orders and trades of the signed-in user (session or API key). */
export async function tradingRoutes(app: FastifyInstance, deps: TradingRouteDeps): Promise<void> {
  app.addHook('onRequest', requireAuth(deps.users, deps.sessions, deps.apiKeys));
  // Orders, trades and balances are read from the tables, which the core writes from its journal just behind its
  // answers: a read waits until they hold every command answered before it (read your writes).
  app.addHook('preHandler', async (request) => {
    if (request.method === 'GET') await deps.core.sequencer.settled();
  });
  const limits = {
    config: {
      rateLimit: {
        max: 6000,
        timeWindow: '1 minute',
        keyGenerator: (r: { auth?: { user: { id: string } }; ip: string }) => r.auth?.user.id ?? r.ip,
      },
    },
  };

  app.post(
    '/market/orders',
    docs(
      'Place an order',
      { body: placeOrderSchema, response: orderResponse, status: 201, errors: [409] },
      limits,
    ),
    async (request, reply) => {
      const user = userId(request);
      const order = await placeOrder(deps.core, user, placeOrderSchema.parse(request.body ?? {}), (id) =>
        findOwnOrder(deps.db, deps.core.units, user, String(id)),
      );
      return reply.status(201).send(order);
    },
  );

  app.get(
    '/market/orders',
    docs("The user's orders, paged", {
      query: listOrdersQuery,
      response: z.array(orderResponse),
      paged: true,
    }),
    async (request, reply) => {
      const q = listOrdersQuery.parse(request.query);
      const { items, total } = await listOrders(deps.db, deps.core.units, userId(request), q);
      paged(reply, total, q.page, q.limit);
      return items;
    },
  );

  app.get(
    '/market/orders/:id',
    docs('One order (id or uuid), with its trades', { response: orderWithTradesResponse }),
    async (request) => {
      const order = await findOwnOrder(
        deps.db,
        deps.core.units,
        userId(request),
        (request.params as { id: string }).id,
      );
      if (!order) throw new AppError(404, [ORDER_ERRORS.orderNotFound]);
      return { ...order, trades: await orderTrades(deps.db, userId(request), order.id) };
    },
  );

  app.post(
    '/market/orders/:id/cancel',
    docs('Cancel an order', { response: orderResponse, status: 201 }, limits),
    async (request, reply) => {
      const id = (request.params as { id: string }).id;
      // A uuid is looked up in the tables: they must hold the orders answered before this request.
      const order = /^\d{1,15}$/.test(id)
        ? { id: Number(id) }
        : await deps.core.sequencer
            .settled()
            .then(() => findOwnOrder(deps.db, deps.core.units, userId(request), id));
      if (!order) throw notFound();
      return reply.status(201).send(await cancelOrder(deps.core, userId(request), order.id));
    },
  );

  app.post(
    '/market/orders/cancel',
    docs(
      'Cancel all orders (optionally one market or side)',
      { body: cancelAllSchema, response: z.array(orderResponse), status: 201 },
      limits,
    ),
    async (request, reply) => {
      return reply
        .status(201)
        .send(await cancelAll(deps.core, userId(request), cancelAllSchema.parse(request.body ?? {})));
    },
  );

  app.get(
    '/market/trades',
    docs("The user's trades, paged", { query: pageQuery, response: z.array(userTradeResponse), paged: true }),
    async (request, reply) => {
      const q = pageQuery.parse(request.query);
      const { items, total } = await listUserTrades(deps.db, userId(request), q.market, q.limit, q.page);
      paged(reply, total, q.page, q.limit);
      return items;
    },
  );

  app.put(
    '/account/fav_market',
    docs('Mark or unmark a favourite market', { body: favouriteSchema, response: z.array(z.string()) }),
    async (request) => {
      const input = favouriteSchema.parse(request.body ?? {});
      if (!deps.core.markets.has(input.market_id)) throw new AppError(422, [ORDER_ERRORS.marketNotFound]);
      await setFavourite(deps.db, userId(request), input.market_id, input.is_fav);
      const list = await listFavourites(deps.db, userId(request));
      // The user's other tabs and devices learn the new list on their private `favmarket` stream.
      deps.streams.publish(privateStreamKey(userId(request), 'favmarket'), list, 'favmarket');
      return list;
    },
  );

  app.get(
    '/account/fav_market/list',
    docs('Favourite markets', { response: z.array(z.string()) }),
    async (request) => listFavourites(deps.db, userId(request)),
  );

  /**
   * Each row also carries `usdt_price`, the value of one unit in USDT (1 when there is no price), and, for a
   * currency with a network, `deposit_address` as Peatio's accounts do (null until one was handed out).
   */
  const balances = async (user: number) => {
    const [rows, addresses] = await Promise.all([
      listBalances(deps.db, user),
      accountDepositAddresses(deps.db, deps.wallet.chains, user),
    ]);
    return rows.map((b) => ({
      ...b,
      usdt_price: usdtPriceText(deps.core, b.currency),
      ...(addresses.has(b.currency) ? { deposit_address: addresses.get(b.currency) } : {}),
    }));
  };
  app.get(
    '/account/balances',
    docs('Balances, paged (Total, Page, Per-Page); nonzero leaves out empty accounts', {
      query: balancesQuery,
      response: z.array(balanceResponse),
      paged: true,
    }),
    async (request, reply) => {
      const q = balancesQuery.parse(request.query);
      const all = await balances(userId(request));
      const kept = q.nonzero ? all.filter((b) => b.balance !== '0' || b.locked !== '0') : all;
      paged(reply, kept.length, q.page, q.limit);
      return kept.slice((q.page - 1) * q.limit, q.page * q.limit);
    },
  );

  app.get(
    '/account/balances/:currency',
    docs('Balance of a currency', { response: balanceResponse }),
    async (request) => {
      const currency = (request.params as { currency: string }).currency;
      const row = (await balances(userId(request))).find((b) => b.currency === currency);
      if (!row) throw new AppError(404, [ERRORS.recordNotFound]);
      return row;
    },
  );
}
