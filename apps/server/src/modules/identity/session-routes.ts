import { ERRORS, otherSessionsEndedResponse, sessionResponse } from '@exchange/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { authUser } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { docs } from '../../http/openapi.ts';
import { paged } from '../../http/paging.ts';
import type { IdentityRouteDeps } from './deps.ts';
import { endOtherSessions, endSession, listSessions } from './device-sessions.ts';

const sessionsQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(10),
});
/** Any text up to a uuid's length: a malformed id answers like an unknown one (404), never a 422 that tells. */
const sessionParam = z.object({ id: z.string().max(64) });
const origin = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'] ?? null,
});
const limit = (max: number) => ({ config: { rateLimit: { max, timeWindow: '1 minute' } } });

/** The session of a browser request (the routes that end sessions are session-only, so there is one). */
function currentSession(request: FastifyRequest): string {
  const id = request.auth?.sessionId;
  if (!id) throw new AppError(401, [ERRORS.invalidSession]);
  return id;
}

/**
 * Devices (issue 31): `GET /resource/sessions` lists the signed-in user's live sessions with browser, OS and
 * address, "this device" marked; `DELETE /resource/sessions/{id}` ends one of the others and `DELETE
 * /resource/sessions` all the others. Registered in the `resource` scope: its hooks authenticate, refuse
 * API keys for a change (`writesSessionOnly`) and ask a change for the session's CSRF token.
 */
export async function sessionRoutes(app: FastifyInstance, deps: IdentityRouteDeps): Promise<void> {
  app.get(
    '/resource/sessions',
    docs('Live sessions (devices) of the signed-in user, newest first, paged', {
      query: sessionsQuery,
      response: z.array(sessionResponse),
      paged: true,
    }),
    async (request, reply) => {
      const { page, limit: count } = sessionsQuery.parse(request.query);
      const { items, total } = await listSessions(
        deps,
        authUser(request).id,
        request.auth?.sessionId,
        page,
        count,
      );
      paged(reply, total, page, count);
      return items;
    },
  );

  app.delete(
    '/resource/sessions/:id',
    docs(
      'End one other session (device) of the signed-in user',
      {
        params: sessionParam,
        status: 204,
        description:
          "Another user's session, an ended one and a malformed id answer 404 `resource.session.doesnt_exist` alike; the current session answers 422 `resource.session.current` (log out with `DELETE /identity/sessions`).",
      },
      limit(30),
    ),
    async (request, reply) => {
      const { id } = sessionParam.parse(request.params);
      await endSession(deps, authUser(request).id, currentSession(request), id, origin(request));
      return reply.status(204).send();
    },
  );

  app.delete(
    '/resource/sessions',
    docs(
      'End every session of the signed-in user but the current one',
      { response: otherSessionsEndedResponse },
      limit(10),
    ),
    async (request) => {
      const ended = await endOtherSessions(
        deps,
        authUser(request).id,
        currentSession(request),
        origin(request),
      );
      return { ended };
    },
  );
}
