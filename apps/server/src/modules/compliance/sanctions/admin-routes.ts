import {
  adminSanctionsHitResponse,
  adminSanctionsHitsQuery,
  adminSanctionsListResponse,
  decideSanctionsHitSchema,
  type StaffPermission,
} from '@exchange/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { dateOf } from '../../../clock.ts';
import { docs } from '../../../http/openapi.ts';
import type { Staff } from '../../admin/access.ts';
import type { ComplianceRouteDeps } from '../deps.ts';
import { decideSanctionsHit, listSanctionsHits } from './hits.ts';
import { currentSanctionsList } from './import.ts';

const idParam = z.object({ id: z.coerce.number().int().positive() });

/**
 * The console's sanctions screening (`/api/v2/admin/sanctions`, permission `sanctions.review`): the hits with the
 * list entry, the score and the name that matched; a decision with a reason; the current list's import.
 */
export function adminSanctionsRoutes(
  app: FastifyInstance,
  deps: ComplianceRouteDeps,
  staff: (request: FastifyRequest, permission: StaffPermission) => Promise<Staff>,
): void {
  app.get(
    '/sanctions/hits',
    docs('Sanctions screening hits: open (default), false positives, confirmed or all', {
      query: adminSanctionsHitsQuery,
      response: z.array(adminSanctionsHitResponse),
    }),
    async (request) => {
      await staff(request, 'sanctions.review');
      return listSanctionsHits(deps.db, adminSanctionsHitsQuery.parse(request.query).state);
    },
  );

  app.post(
    '/sanctions/hits/:id/decide',
    docs('Decide a screening hit: false positive (unfreezes) or confirmed (stays frozen), with a reason', {
      params: idParam,
      body: decideSanctionsHitSchema,
      response: adminSanctionsHitResponse,
    }),
    async (request) => {
      const who = await staff(request, 'sanctions.review');
      const input = decideSanctionsHitSchema.parse(request.body ?? {});
      return decideSanctionsHit(deps.db, who, idParam.parse(request.params).id, input, dateOf(deps.clock));
    },
  );

  app.get(
    '/sanctions/list',
    docs('The current sanctions list: its file, hash, counts and import date, and the match threshold', {
      response: adminSanctionsListResponse,
    }),
    async (request) => {
      await staff(request, 'sanctions.review');
      const list = await currentSanctionsList(deps.db);
      return {
        list: list && {
          file_name: list.fileName,
          sha256: list.sha256,
          generated_at: list.generatedAt,
          entities: list.entities,
          names: list.names,
          imported_at: list.importedAt,
        },
        threshold: deps.config.sanctionsMatchThreshold,
      };
    },
  );
}
