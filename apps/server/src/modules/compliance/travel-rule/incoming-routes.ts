import {
  adminTravelRuleDepositResponse,
  adminTravelRuleDepositsQuery,
  decideTravelRuleDepositSchema,
  type StaffPermission,
} from '@exchange/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { z } from 'zod';
import type { Core } from '../../../core/index.ts';
import { docs } from '../../../http/openapi.ts';
import type { Staff } from '../../admin/access.ts';
import type { Wallet } from '../../wallet/index.ts';
import { decideTravelRuleDeposit, listTravelRuleDeposits } from './incoming-review.ts';

const idParam = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/** What the console's travel-rule routes use (the app passes its whole dependency set). */
export interface TravelRuleReviewRouteDeps {
  db: pg.Pool;
  core: Core;
  wallet: Pick<Wallet, 'withdrawDeps'>;
}

/**
 * The console's incoming travel rule (`/api/v2/admin/travel_rule/deposits`, permission `travel_rule.review`): the
 * crypto deposits held for want of the originator's information, and the decision on each, with a reason.
 */
export function adminTravelRuleRoutes(
  app: FastifyInstance,
  deps: TravelRuleReviewRouteDeps,
  staff: (request: FastifyRequest, permission: StaffPermission) => Promise<Staff>,
): void {
  app.get(
    '/travel_rule/deposits',
    docs(
      'Deposits under the travel rule: held (default), awaiting their record, credited unchecked (the service was unreachable), released, returned or all',
      {
        query: adminTravelRuleDepositsQuery,
        response: z.array(adminTravelRuleDepositResponse),
      },
    ),
    async (request) => {
      await staff(request, 'travel_rule.review');
      return listTravelRuleDeposits(deps.db, adminTravelRuleDepositsQuery.parse(request.query).state);
    },
  );

  for (const decision of ['release', 'return'] as const) {
    app.post(
      `/travel_rule/deposits/:id/${decision}`,
      docs(
        decision === 'release'
          ? 'Release a held deposit: credit it to the customer (once), with a reason'
          : 'Return a held deposit: reject it and send its funds back to the sender from the hot wallet (less the network fee), with a reason; refused where the chain names no sender',
        { params: idParam, body: decideTravelRuleDepositSchema, response: adminTravelRuleDepositResponse },
      ),
      async (request) => {
        const who = await staff(request, 'travel_rule.review');
        const input = decideTravelRuleDepositSchema.parse(request.body ?? {});
        const wallet = deps.wallet.withdrawDeps();
        return decideTravelRuleDeposit(
          {
            db: deps.db,
            core: deps.core,
            clock: wallet.clock,
            onDeposit: wallet.onDeposit,
            onChange: wallet.onChange,
          },
          who,
          idParam.parse(request.params).id,
          decision,
          input,
        );
      },
    );
  }
}
