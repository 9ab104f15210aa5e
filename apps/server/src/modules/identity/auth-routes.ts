import { authJwtResponse, jwksResponse } from '@exchange/shared';
import type { FastifyInstance } from 'fastify';
import { authUser, requireAuth } from '../../http/auth.ts';
import { docs } from '../../http/openapi.ts';
import type { IdentityRouteDeps } from './deps.ts';

/**
 * Barong's authorisation endpoint (`/api/v2/auth/*`, here under `/api/v2/barong`): a request with a live session
 * cookie (and, for a change, its CSRF token) or a signed API key is answered 200 with `Authorization: Bearer <jwt>`,
 * the session JWT an OpenDAX gateway passes on to the services behind it, and the same token in the body. Anything
 * else is the usual 401. The JWT is what Ranger takes on `/private` (see jwt.ts for what it holds).
 */
export async function authRoutes(app: FastifyInstance, deps: IdentityRouteDeps): Promise<void> {
  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/auth/*',
    ...docs(
      'A session JWT for the signed-in user or API key (Barong authz; also in the Authorization header)',
      {
        response: authJwtResponse,
      },
      { onRequest: requireAuth(deps.users, deps.sessions, deps.apiKeys) },
    ),
    handler: async (request, reply) => {
      const user = authUser(request);
      const kid = request.headers['x-auth-apikey'];
      const binding =
        request.auth?.via === 'apikey' && typeof kid === 'string'
          ? { kid }
          : { sid: request.auth?.sessionId ?? '' };
      const { token, exp } = await deps.jwt.issue(user, binding);
      reply.header('authorization', `Bearer ${token}`);
      return { token, expires_at: exp };
    },
  });

  app.get(
    '/identity/jwks',
    docs('The public key of the session JWTs (a JSON Web Key Set)', { response: jwksResponse }),
    async () => deps.jwt.jwks(),
  );
}
