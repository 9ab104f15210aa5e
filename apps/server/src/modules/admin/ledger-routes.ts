import { ledgerViewResponse } from '@exchange/shared';
import type { FastifyInstance } from 'fastify';
import { docs } from '../../http/openapi.ts';
import { requireStaff } from './access.ts';
import type { AdminRouteDeps } from './deps.ts';
import { ledgerCsv, ledgerView } from './ledger.ts';

/**
 * The ledger view (role `accountant`, permission `ledger.read`), registered inside {@link adminRoutes}'s scope:
 * totals per currency and system account with the audit, and the same totals as a CSV download.
 */
export async function adminLedgerRoutes(app: FastifyInstance, deps: AdminRouteDeps): Promise<void> {
  app.get(
    '/ledger',
    docs('Totals per currency and system account, and the ledger audit', { response: ledgerViewResponse }),
    async (request, reply) => {
      await requireStaff(deps, request, 'ledger.read');
      // What the exchange holds: for this staff member's eyes only, never kept by a browser or a proxy.
      reply.header('cache-control', 'no-store, private');
      return ledgerView(deps.db);
    },
  );

  app.get(
    '/ledger.csv',
    docs('The ledger totals as CSV (a download)', { content: 'csv' }),
    async (request, reply) => {
      await requireStaff(deps, request, 'ledger.read');
      const view = await ledgerView(deps.db);
      const day = view.at.slice(0, 10);
      return reply
        .header('cache-control', 'no-store, private')
        .header('content-disposition', `attachment; filename="ledger-${day}.csv"`)
        .type('text/csv; charset=utf-8')
        .send(ledgerCsv(view.totals));
    },
  );
}
