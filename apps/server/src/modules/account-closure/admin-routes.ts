import { adminClosureResponse, adminClosuresQuery, type StaffPermission } from '@exchange/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { docs } from '../../http/openapi.ts';
import type { Staff } from '../admin/access.ts';
import type { ClosureRouteDeps } from './deps.ts';
import { closureQueue } from './queue.ts';

/**
 * The operator console's closure queue (`GET /api/v2/admin/closures`, permission `users.read`): closures under way,
 * those past 30 days with a balance that has no withdrawal on its way ("for conversion to fiat"), and closed
 * accounts with their retention dates. It only reads: a conversion is a ledger adjustment, proposed and approved
 * by two accountants through the adjustments queue, which refuses a staff member's own account.
 */
export function adminClosureRoutes(
  app: FastifyInstance,
  deps: ClosureRouteDeps,
  staff: (request: FastifyRequest, permission: StaffPermission) => Promise<Staff>,
): void {
  app.get(
    '/closures',
    docs('Account closures: under way, for conversion to fiat, closed', {
      query: adminClosuresQuery,
      response: z.array(adminClosureResponse),
    }),
    async (request) => {
      await staff(request, 'users.read');
      const { state } = adminClosuresQuery.parse(request.query);
      return closureQueue(deps.db, deps.core, state, deps.clock.now());
    },
  );
}
