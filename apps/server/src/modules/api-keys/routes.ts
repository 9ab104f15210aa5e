import {
  apiKeyListQuery,
  apiKeyResponse,
  createApiKeySchema,
  createdApiKeyResponse,
  deleteApiKeySchema,
  ERRORS,
  updateApiKeySchema,
} from '@exchange/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { authUser } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { docs } from '../../http/openapi.ts';
import type { ApiKeyRouteDeps } from './deps.ts';
import { listKeys } from './repository.ts';
import { createApiKey, deleteApiKey, updateApiKey } from './service.ts';

const kidParam = z.object({ kid: z.string().regex(/^[0-9a-f]{1,64}$/) });
const origin = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'] ?? null,
});

/**
 * Barong checks two-factor before the code: an account without it is refused with 400
 * `resource.api_key.2fa_disabled` whatever the body says.
 */
function requireTwoFactor(request: FastifyRequest): void {
  if (!authUser(request).otp) throw new AppError(400, [ERRORS.apiKey2faDisabled]);
}

/** `resource/api_keys`: list, create, switch on/off and delete the user's own keys; every change needs TOTP. */
export async function apiKeyRoutes(app: FastifyInstance, deps: ApiKeyRouteDeps): Promise<void> {
  app.get(
    '/resource/api_keys',
    docs('API keys, paged (Total, Page, Per-Page) and ordered', {
      query: apiKeyListQuery,
      response: z.array(apiKeyResponse),
      paged: true,
    }),
    async (request, reply) => {
      const q = apiKeyListQuery.parse(request.query);
      const { items, total } = await listKeys(deps.db, authUser(request).id, {
        limit: q.limit,
        offset: (q.page - 1) * q.limit,
        orderBy: q.order_by,
        ordering: q.ordering,
      });
      reply.header('Total', total).header('Page', q.page).header('Per-Page', q.limit);
      return items;
    },
  );

  app.post(
    '/resource/api_keys',
    docs('Create an API key (TOTP), optionally usable from listed IPs only', {
      body: createApiKeySchema,
      response: createdApiKeyResponse,
      status: 201,
      errors: [400],
    }),
    async (request, reply) => {
      requireTwoFactor(request);
      const input = createApiKeySchema.parse(request.body ?? {});
      return reply.status(201).send(await createApiKey(deps, authUser(request), input, origin(request)));
    },
  );

  app.patch(
    '/resource/api_keys/:kid',
    docs('Switch an API key on or off, or set its allowed IPs (TOTP)', {
      params: kidParam,
      body: updateApiKeySchema,
      response: apiKeyResponse,
      errors: [400],
    }),
    async (request) => {
      requireTwoFactor(request);
      const { kid } = kidParam.parse(request.params);
      return updateApiKey(
        deps,
        authUser(request),
        kid,
        updateApiKeySchema.parse(request.body ?? {}),
        origin(request),
      );
    },
  );

  app.delete(
    '/resource/api_keys/:kid',
    docs('Delete an API key (TOTP)', {
      params: kidParam,
      query: deleteApiKeySchema,
      status: 204,
      errors: [400],
    }),
    async (request, reply) => {
      requireTwoFactor(request);
      const { kid } = kidParam.parse(request.params);
      const { totp_code } = deleteApiKeySchema.parse(request.query);
      await deleteApiKey(deps, authUser(request), kid, totp_code, origin(request));
      return reply.status(204).send();
    },
  );
}
