import { createApiKeySchema, deleteApiKeySchema, updateApiKeySchema } from '@exchange/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../../app.ts';
import { authUser } from '../../http/auth.ts';
import { docs } from '../../http/openapi.ts';
import { listKeys } from './repository.ts';
import { createApiKey, deleteApiKey, updateApiKey } from './service.ts';

const pageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(1000).default(10),
});
const kidParam = z.object({ kid: z.string().regex(/^[0-9a-f]{1,64}$/) });
const origin = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'] ?? null,
});

/** `resource/api_keys`: list, create, switch on/off and delete the user's own keys; every change needs TOTP. */
export async function apiKeyRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.get('/resource/api_keys', docs('API keys, paged', { query: pageQuery }), async (request, reply) => {
    const { page, limit } = pageQuery.parse(request.query);
    const { items, total } = await listKeys(deps.db, authUser(request).id, limit, (page - 1) * limit);
    reply.header('Total', total).header('Page', page).header('Per-Page', limit);
    return items;
  });

  app.post(
    '/resource/api_keys',
    docs('Create an API key (TOTP)', { body: createApiKeySchema }),
    async (request, reply) => {
      const input = createApiKeySchema.parse(request.body ?? {});
      return reply
        .status(201)
        .send(await createApiKey(deps, authUser(request), input.totp_code, origin(request)));
    },
  );

  app.patch(
    '/resource/api_keys/:kid',
    docs('Switch an API key on or off (TOTP)', { params: kidParam, body: updateApiKeySchema }),
    async (request) => {
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
    docs('Delete an API key (TOTP)', { params: kidParam, query: deleteApiKeySchema }),
    async (request, reply) => {
      const { kid } = kidParam.parse(request.params);
      const { totp_code } = deleteApiKeySchema.parse(request.query);
      await deleteApiKey(deps, authUser(request), kid, totp_code, origin(request));
      return reply.status(204).send();
    },
  );
}
