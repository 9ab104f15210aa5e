import {
  adminWithdrawalResponse,
  adminWithdrawalsQuery,
  approveWithdrawalSchema,
  rejectWithdrawalSchema,
  resolveWithdrawalSchema,
  type StaffPermission,
  withdrawLimitEntityResponse,
  withdrawLimitSchema,
} from '@exchange/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { docs } from '../../http/openapi.ts';
import { paged } from '../../http/paging.ts';
import type { Staff } from './access.ts';
import type { AdminRouteDeps } from './deps.ts';
import { listWithdrawLimits, setWithdrawLimit } from './withdraw-limits.ts';
import { decideWithdrawal, listWithdrawals, resolveWithdrawal } from './withdrawals.ts';

const idParam = z.object({ id: z.coerce.number().int().positive() });

/**
 * The console's withdrawal routes (compliance and accountants): the review queue with approve and reject, the
 * errored withdrawals with their resolve actions, and the limits per user level and currency.
 */
export function adminWithdrawalRoutes(
  app: FastifyInstance,
  deps: AdminRouteDeps,
  staff: (request: FastifyRequest, permission: StaffPermission) => Promise<Staff>,
): void {
  app.get(
    '/withdrawals',
    docs('Withdrawals waiting for review (default), errored, or all', {
      query: adminWithdrawalsQuery,
      response: z.array(adminWithdrawalResponse),
      paged: true,
    }),
    async (request, reply) => {
      await staff(request, 'withdrawals.review');
      const q = adminWithdrawalsQuery.parse(request.query);
      const { items, total } = await listWithdrawals(deps.db, q);
      paged(reply, total, q.page, q.limit);
      return items;
    },
  );

  for (const approve of [true, false]) {
    const body = approve ? approveWithdrawalSchema : rejectWithdrawalSchema;
    app.post(
      `/withdrawals/:id/${approve ? 'approve' : 'reject'}`,
      docs(
        approve
          ? 'Approve a withdrawal waiting for review (it is then broadcast once)'
          : 'Reject a withdrawal waiting for review (its funds go back once; the user sees the reason)',
        { params: idParam, body, response: adminWithdrawalResponse },
      ),
      async (request) => {
        const who = await staff(request, 'withdrawals.review');
        const { reason } = body.parse(request.body ?? {});
        const { id } = idParam.parse(request.params);
        return decideWithdrawal(deps.wallet.withdrawDeps(), who, id, approve, reason);
      },
    );
  }

  app.post(
    '/withdrawals/:id/resolve',
    docs('Resolve an errored withdrawal: sent (with its txid) or failed (funds back)', {
      params: idParam,
      body: resolveWithdrawalSchema,
      response: adminWithdrawalResponse,
    }),
    async (request) => {
      const who = await staff(request, 'withdrawals.review');
      const input = resolveWithdrawalSchema.parse(request.body ?? {});
      return resolveWithdrawal(deps.wallet.withdrawDeps(), who, idParam.parse(request.params).id, input);
    },
  );

  app.get(
    '/withdraw_limits',
    docs('Withdrawal limits per user level and currency', { response: z.array(withdrawLimitEntityResponse) }),
    async (request) => {
      await staff(request, 'withdrawals.limits');
      return listWithdrawLimits(deps.db);
    },
  );

  app.put(
    '/withdraw_limits',
    docs('Set the limits of a level and currency (both null removes them)', {
      body: withdrawLimitSchema,
      response: withdrawLimitEntityResponse.nullable(),
    }),
    async (request) => {
      const who = await staff(request, 'withdrawals.limits');
      return setWithdrawLimit(deps.db, who, withdrawLimitSchema.parse(request.body ?? {}));
    },
  );
}
