import {
  beneficiaryIdParam,
  beneficiaryResponse,
  ownershipChallengeResponse,
  ownershipProofSchema,
  travelRuleProviderResponse,
} from '@exchange/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { authUser } from '../../../http/auth.ts';
import { docs } from '../../../http/openapi.ts';
import type { ComplianceRouteDeps } from '../deps.ts';
import { issueChallenge, submitProof } from './proofs.ts';

/**
 * The travel rule's customer calls, registered in the wallet routes' scope (its authentication and `limits`):
 * the provider directory for the address book, and the signed-message proof of a self-hosted address.
 */
export function travelRuleRoutes(
  app: FastifyInstance,
  deps: ComplianceRouteDeps,
  limits: {
    config: { rateLimit: { max: number; timeWindow: string; keyGenerator: (r: FastifyRequest) => string } };
  },
): void {
  const proofDeps = { db: deps.db, config: deps.config.travelRule, clock: deps.clock };
  app.get(
    '/account/travel_rule/providers',
    docs('Providers a saved address can be declared as held by (the travel-rule directory)', {
      response: z.array(travelRuleProviderResponse),
    }),
    async () => deps.config.travelRule.providers,
  );
  app.post(
    '/account/beneficiaries/:id/ownership_challenge',
    docs(
      'A message to sign with a saved self-hosted address (BIP-137, EIP-191 or TIP-191), valid for a while',
      { params: beneficiaryIdParam, response: ownershipChallengeResponse, status: 201 },
      limits,
    ),
    async (request, reply) => {
      const { id } = beneficiaryIdParam.parse(request.params);
      return reply.status(201).send(await issueChallenge(proofDeps, authUser(request), id));
    },
  );
  app.post(
    '/account/beneficiaries/:id/ownership_proof',
    docs(
      "The challenge's signature: on success the address counts as the customer's own",
      { params: beneficiaryIdParam, body: ownershipProofSchema, response: beneficiaryResponse },
      limits,
    ),
    async (request) => {
      const { id } = beneficiaryIdParam.parse(request.params);
      const input = ownershipProofSchema.parse(request.body ?? {});
      return submitProof(proofDeps, authUser(request), id, input, {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      });
    },
  );
}
