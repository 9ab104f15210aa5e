import {
  activateBeneficiarySchema,
  beneficiaryIdParam,
  beneficiaryListQuery,
  beneficiaryResponse,
  createBeneficiarySchema,
  deleteBeneficiarySchema,
  emptyResponse,
  messageResponse,
} from '@exchange/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { authUser } from '../../http/auth.ts';
import { docs } from '../../http/openapi.ts';
import { paged } from '../../http/paging.ts';
import {
  activateBeneficiary,
  type BeneficiaryDeps,
  createBeneficiary,
  deleteBeneficiary,
  getBeneficiary,
  listBeneficiaries,
  resendPin,
} from './beneficiaries.ts';
import { requestRemoval } from './beneficiary-removal.ts';
import type { WalletRouteDeps } from './deps.ts';

const idParam = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
/** Where a request came from, for the security log. */
const origin = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'] ?? null,
});

/**
 * Peatio `account/beneficiaries`: saved withdrawal addresses (list, one, add, the activation pin, activate,
 * delete), registered in the wallet routes' scope (its authentication and per-account `limits`).
 */
export function beneficiaryRoutes(
  app: FastifyInstance,
  deps: WalletRouteDeps,
  beneficiaryDeps: BeneficiaryDeps,
  limits: {
    config: { rateLimit: { max: number; timeWindow: string; keyGenerator: (r: FastifyRequest) => string } };
  },
): void {
  const strict = limits;
  app.get(
    '/account/beneficiaries',
    docs('Beneficiaries (withdrawal addresses), paged (Total, Page, Per-Page)', {
      query: beneficiaryListQuery,
      response: z.array(beneficiaryResponse),
      paged: true,
    }),
    async (request, reply) => {
      const q = beneficiaryListQuery.parse(request.query);
      const { items, total } = await listBeneficiaries(deps.db, authUser(request).id, q);
      paged(reply, total, q.page, q.limit);
      return items;
    },
  );
  app.get(
    '/account/beneficiaries/:id',
    docs("One beneficiary (404 record.not_found for an unknown id or another user's)", {
      params: beneficiaryIdParam,
      response: beneficiaryResponse,
    }),
    async (request) =>
      getBeneficiary(deps.db, authUser(request).id, beneficiaryIdParam.parse(request.params).id),
  );
  app.post(
    '/account/beneficiaries',
    docs(
      'Add a beneficiary (data as an object or a JSON string)',
      { body: createBeneficiarySchema, response: beneficiaryResponse, status: 201 },
      strict,
    ),
    async (request, reply) => {
      const input = createBeneficiarySchema.parse(request.body ?? {});
      return reply
        .status(201)
        .send(await createBeneficiary(beneficiaryDeps, authUser(request), input, origin(request)));
    },
  );
  // PATCH as Peatio and BaseApp send it (200), POST as the spec's web app does (201).
  app.post(
    '/account/beneficiaries/:id/resend_pin',
    docs(
      'Send the activation pin again (201)',
      { params: idParam, response: emptyResponse, status: 201 },
      strict,
    ),
    async (request, reply) => {
      await resendPin(beneficiaryDeps, authUser(request), idParam.parse(request.params).id);
      return reply.status(201).send({});
    },
  );
  app.patch(
    '/account/beneficiaries/:id/resend_pin',
    docs('Send the activation pin again (Peatio, 200)', { params: idParam, response: emptyResponse }, strict),
    async (request) => {
      await resendPin(beneficiaryDeps, authUser(request), idParam.parse(request.params).id);
      return {};
    },
  );
  app.patch(
    '/account/beneficiaries/:id/activate',
    docs(
      'Activate a beneficiary with its pin',
      { body: activateBeneficiarySchema, params: idParam, response: beneficiaryResponse },
      strict,
    ),
    async (request) => {
      const { pin } = activateBeneficiarySchema.parse(request.body ?? {});
      return activateBeneficiary(
        beneficiaryDeps,
        authUser(request).id,
        idParam.parse(request.params).id,
        pin,
        origin(request),
      );
    },
  );
  app.delete(
    '/account/beneficiaries/:id',
    docs(
      deps.config.baseAppCompat
        ? 'Delete a beneficiary: with `otp` (authenticator) at once, without one the owner confirms by mail (202)'
        : 'Delete a beneficiary',
      {
        body: deleteBeneficiarySchema,
        params: idParam,
        status: 204,
        ...(deps.config.baseAppCompat
          ? {
              more: [
                {
                  status: 202,
                  description: 'Without `otp` (BASEAPP_COMPAT): the owner is mailed a link that confirms it',
                  response: messageResponse,
                },
              ],
            }
          : {}),
      },
      strict,
    ),
    async (request, reply) => {
      const body = (request.body ?? {}) as { otp?: unknown };
      // BASEAPP_COMPAT: BaseApp deletes without a code; the owner confirms by a mailed link instead.
      if (deps.config.baseAppCompat && (body.otp === undefined || body.otp === '')) {
        const id = idParam.parse(request.params).id;
        await requestRemoval(
          { ...beneficiaryDeps, config: deps.config, clock: deps.clock },
          authUser(request),
          id,
        );
        return reply.status(202).send({ message: 'account.beneficiary.removal_mailed' });
      }
      const { otp } = deleteBeneficiarySchema.parse(body);
      await deleteBeneficiary(
        beneficiaryDeps,
        authUser(request),
        idParam.parse(request.params).id,
        otp,
        origin(request),
      );
      return reply.status(204).send();
    },
  );
}
