import {
  ADMIN_CUSTODY_ERRORS,
  ADMIN_ERRORS,
  custodyLimitsResponse,
  custodyLimitsSchema,
  custodyViewResponse,
  staffMay,
} from '@exchange/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { authUser } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { docs } from '../../http/openapi.ts';
import { requireStaff } from '../admin/access.ts';
import { custodyView, resolveCustodyAlert, setCustodyLimits } from './console.ts';
import type { CustodyRouteDeps } from './deps.ts';
import type { NetworkSource } from './solvency-routes.ts';

const alertParam = z.object({
  id: z.coerce
    .number({ error: ADMIN_CUSTODY_ERRORS.alertNotFound })
    .int(ADMIN_CUSTODY_ERRORS.alertNotFound)
    .positive(ADMIN_CUSTODY_ERRORS.alertNotFound)
    .max(Number.MAX_SAFE_INTEGER, ADMIN_CUSTODY_ERRORS.alertNotFound),
});

/**
 * The wallet tiers in the operator console (issue #26 item 3), registered inside {@link adminRoutes}'s scope
 * (session check). Reading: `ledger.read` (the accountants' solvency view) or `markets.manage` (the technicians
 * who set the bounds). Changing the hot wallet's bounds and resolving an alert: `markets.manage`, as the network
 * settings, with step-up; each change is a staff action in the trail.
 */
export async function adminCustodyRoutes(
  app: FastifyInstance,
  deps: CustodyRouteDeps,
  networks: NetworkSource = () => deps.wallet.chains.all(),
): Promise<void> {
  /** Either reading permission (checked first, as every admin route does), then two-factor and step-up. */
  const reader = (request: FastifyRequest) => {
    const { role } = authUser(request);
    if (!staffMay(role, 'ledger.read') && !staffMay(role, 'markets.manage'))
      throw new AppError(403, [ADMIN_ERRORS.forbidden]);
    return requireStaff(deps, request, null);
  };
  const writer = (request: FastifyRequest) => requireStaff(deps, request, 'markets.manage');

  app.get(
    '/custody',
    docs(
      "Each network's hot wallet against its bounds, the cold address, open alerts, transfers and refusals",
      { response: custodyViewResponse },
    ),
    async (request, reply) => {
      await reader(request);
      reply.header('cache-control', 'no-store, private');
      return custodyView(deps.db, networks());
    },
  );

  app.put(
    '/custody/limits',
    docs("Set the hot wallet's minimum and maximum of a currency on a network (null: none)", {
      body: custodyLimitsSchema,
      response: custodyLimitsResponse.nullable(),
    }),
    async (request) => {
      const staff = await writer(request);
      return setCustodyLimits(deps.db, staff, custodyLimitsSchema.parse(request.body ?? {}));
    },
  );

  app.post(
    '/custody/alerts/:id/resolve',
    docs('Mark an open chain alert resolved', {
      params: alertParam,
      response: z.object({ resolved: z.literal(true) }),
    }),
    async (request) => {
      const staff = await writer(request);
      await resolveCustodyAlert(deps.db, staff, alertParam.parse(request.params).id);
      return { resolved: true };
    },
  );
}
