import { ADMIN_ERRORS, statementQuery, statementResponse } from '@exchange/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../http/errors.ts';
import { docs } from '../../http/openapi.ts';
import { paged } from '../../http/paging.ts';
import { requireStaff } from './access.ts';
import { userByUid } from './customers.ts';
import type { AdminRouteDeps } from './deps.ts';
import { accountStatement, statementCsv } from './statement.ts';

const uidParam = z.object({ uid: z.string().regex(/^ID[0-9A-F]{10}$/, ADMIN_ERRORS.userNotFound) });

/**
 * A customer's statement of account (permission `statements.read`), registered inside {@link adminRoutes}'s scope:
 * every movement of one currency with its cause and the balances after it, paged (`Total`, `Page`, `Per-Page`),
 * and the whole of it as CSV.
 */
export async function adminStatementRoutes(app: FastifyInstance, deps: AdminRouteDeps): Promise<void> {
  const subject = async (params: unknown, currency: string) => {
    if (!deps.core.units.precisions.has(currency))
      throw new AppError(422, [ADMIN_ERRORS.statementInvalidCurrency]);
    // The ledger follows the core's journal: the statement includes every command answered before the request.
    await deps.core.sequencer.settled();
    return userByUid(deps.db, uidParam.parse(params).uid);
  };

  app.get(
    '/users/:uid/statement',
    docs("A customer's movements in one currency, with causes and running balances", {
      params: uidParam,
      query: statementQuery,
      response: statementResponse,
      paged: true,
    }),
    async (request, reply) => {
      await requireStaff(deps, request, 'statements.read');
      const q = statementQuery.parse(request.query);
      const statement = await accountStatement(deps.db, await subject(request.params, q.currency), q);
      reply.header('cache-control', 'no-store, private');
      paged(reply, statement.total, q.page, q.limit);
      return statement;
    },
  );

  app.get(
    '/users/:uid/statement.csv',
    docs('The statement as CSV (a download)', { params: uidParam, query: statementQuery, content: 'csv' }),
    async (request, reply) => {
      await requireStaff(deps, request, 'statements.read');
      const q = statementQuery.parse(request.query);
      const user = await subject(request.params, q.currency);
      return reply
        .header('cache-control', 'no-store, private')
        .header('content-disposition', `attachment; filename="statement-${user.uid}-${q.currency}.csv"`)
        .type('text/csv; charset=utf-8')
        .send(await statementCsv(deps.db, user, q));
    },
  );
}
