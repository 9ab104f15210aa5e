import {
  ADMIN_MARKET_ERRORS,
  addMarketSchema,
  adminMarketResponse,
  adminNetworkResponse,
  updateMarketSchema,
  updateNetworkSchema,
} from '@exchange/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { docs } from '../../http/openapi.ts';
import { requireStaff } from './access.ts';
import type { AdminRouteDeps } from './deps.ts';
import { addMarket, changeNetwork, updateMarket } from './markets.ts';
import { listMarkets, listNetworks } from './markets-repository.ts';

const marketParam = z.object({ id: z.string().regex(/^[a-z0-9]{4,20}$/, ADMIN_MARKET_ERRORS.notFound) });
const networkParams = z.object({
  currency: z.string().regex(/^[a-z0-9]{2,10}$/, ADMIN_MARKET_ERRORS.networkNotFound),
  blockchain_key: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, ADMIN_MARKET_ERRORS.networkNotFound),
});

/**
 * Markets and currency networks (role `technical`, permission `markets.manage`), registered inside
 * {@link adminRoutes}'s scope (session check). A market changes through the exchange core; a network in the
 * database. Each change is a staff action in the trail with before and after.
 */
export async function adminMarketRoutes(app: FastifyInstance, deps: AdminRouteDeps): Promise<void> {
  const staff = (request: Parameters<typeof requireStaff>[1]) =>
    requireStaff(deps, request, 'markets.manage');

  app.get(
    '/markets',
    docs('Markets with their state, bounds and fees', { response: z.array(adminMarketResponse) }),
    async (request) => {
      await staff(request);
      return listMarkets(deps.db);
    },
  );

  app.post(
    '/markets',
    docs('Add a market through the exchange core (tradable at once when enabled)', {
      body: addMarketSchema,
      response: adminMarketResponse,
      status: 201,
    }),
    async (request, reply) => {
      const who = await staff(request);
      const input = addMarketSchema.parse(request.body ?? {});
      return reply.status(201).send(await addMarket(deps.db, deps.core, who, input));
    },
  );

  app.post(
    '/markets/:id',
    docs("Change a market's state, bounds or fees through the exchange core", {
      params: marketParam,
      body: updateMarketSchema,
      response: adminMarketResponse,
    }),
    async (request) => {
      const who = await staff(request);
      const { id } = marketParam.parse(request.params);
      return updateMarket(deps.db, deps.core, who, id, updateMarketSchema.parse(request.body ?? {}));
    },
  );

  app.get(
    '/networks',
    docs("Every currency's networks: switches, fees and minimums", {
      response: z.array(adminNetworkResponse),
    }),
    async (request) => {
      await staff(request);
      return listNetworks(deps.db);
    },
  );

  app.post(
    '/networks/:currency/:blockchain_key',
    docs('Switch deposits or withdrawals of a network, change its fees and minimums', {
      params: networkParams,
      body: updateNetworkSchema,
      response: adminNetworkResponse,
    }),
    async (request) => {
      const who = await staff(request);
      const { currency, blockchain_key } = networkParams.parse(request.params);
      const input = updateNetworkSchema.parse(request.body ?? {});
      return changeNetwork(deps.db, who, currency, blockchain_key, input);
    },
  );
}
