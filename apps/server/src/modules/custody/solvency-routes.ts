import {
  SOLVENCY_ERRORS,
  solvencyProofQuery,
  solvencyProofResponse,
  solvencyReportResponse,
  solvencySnapshotResponse,
} from '@exchange/shared';
import type { FastifyInstance } from 'fastify';
import { authUser, requireAuth } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { docs } from '../../http/openapi.ts';
import { requireStaff } from '../admin/access.ts';
import { recordStaffAction } from '../admin/trail.ts';
import type { Network } from '../wallet/chains.ts';
import type { CustodyRouteDeps } from './deps.ts';
import { makeSnapshot, proofFor } from './snapshots.ts';
import { solvencyCsv, solvencyReport } from './solvency.ts';

/** The networks whose chains the report reads: the wallet's registry, read at each request. */
export type NetworkSource = () => readonly Network[];

/**
 * The proof of solvency in the operator console (permission `ledger.read`, as the ledger view), registered inside
 * {@link adminRoutes}'s scope (session check): the report per currency, the same as CSV, and publishing a Merkle
 * snapshot of liabilities (a staff action, in the trail).
 */
export async function adminSolvencyRoutes(
  app: FastifyInstance,
  deps: CustodyRouteDeps,
  networks: NetworkSource = () => deps.wallet.chains.all(),
): Promise<void> {
  app.get(
    '/solvency',
    docs('On-chain holdings against customer liabilities per currency, and the newest Merkle root', {
      response: solvencyReportResponse,
      security: 'session',
    }),
    async (request, reply) => {
      await requireStaff(deps, request, 'ledger.read');
      // What the exchange holds: for this staff member's eyes only, never kept by a browser or a proxy.
      reply.header('cache-control', 'no-store, private');
      return solvencyReport(deps.db, networks());
    },
  );

  app.get(
    '/solvency.csv',
    docs('The solvency report as CSV (a download)', { content: 'csv', security: 'session' }),
    async (request, reply) => {
      await requireStaff(deps, request, 'ledger.read');
      const report = await solvencyReport(deps.db, networks());
      return reply
        .header('cache-control', 'no-store, private')
        .header('content-disposition', `attachment; filename="solvency-${report.at.slice(0, 10)}.csv"`)
        .type('text/csv; charset=utf-8')
        .send(solvencyCsv(report));
    },
  );

  app.post(
    '/solvency/snapshots',
    docs('Publish a Merkle snapshot of customer liabilities; returns its root', {
      response: solvencySnapshotResponse,
      status: 201,
      security: 'session',
    }),
    async (request, reply) => {
      const staff = await requireStaff(deps, request, 'ledger.read');
      const snapshot = await makeSnapshot(deps.db, deps.keys, staff.user.id, (tx, s) =>
        recordStaffAction(tx, staff, 'solvency.snapshot', `solvency_snapshot:${s.id}`, {
          after: { root: s.root, leaf_count: s.leaf_count },
        }),
      );
      return reply.status(201).send(snapshot);
    },
  );
}

/**
 * The signed-in customer's own proof of liabilities (Peatio scope, `/account/solvency/proof`): only ever the
 * session's (or API key's) own account; there is no parameter naming another.
 */
export async function accountSolvencyRoutes(app: FastifyInstance, deps: CustodyRouteDeps): Promise<void> {
  app.addHook('onRequest', requireAuth(deps.users, deps.sessions, deps.apiKeys));
  app.get(
    '/account/solvency/proof',
    docs('My Merkle proof of liabilities in the newest (or a given) published snapshot', {
      query: solvencyProofQuery,
      response: solvencyProofResponse,
    }),
    async (request, reply) => {
      const { snapshot_id } = solvencyProofQuery.parse(request.query);
      const proof = await proofFor(deps.db, deps.keys, authUser(request).id, snapshot_id);
      if (proof === 'no_snapshot') throw new AppError(404, [SOLVENCY_ERRORS.snapshotNotFound]);
      if (proof === 'not_in_snapshot') throw new AppError(404, [SOLVENCY_ERRORS.notInSnapshot]);
      reply.header('cache-control', 'no-store, private');
      return proof;
    },
  );
}
