import { addIpWhitelistSchema, ipWhitelistEntryResponse, removeIpWhitelistSchema } from '@exchange/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { authUser } from '../../http/auth.ts';
import { docs } from '../../http/openapi.ts';
import { sessionOnly } from '../../http/session-only.ts';
import type { IdentityRouteDeps } from './deps.ts';
import { addLoginWhitelistEntry, listLoginWhitelist, removeLoginWhitelistEntry } from './ip-whitelist.ts';

/** Any short text: a malformed id answers like an unknown one (404), never a 422 that tells them apart. */
const entryParam = z.object({ id: z.string().max(64) });
const origin = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'] ?? null,
});
const limit = (max: number) => ({ config: { rateLimit: { max, timeWindow: '1 minute' } } });

/**
 * The login IP whitelist (issue 31, part 2): `GET /resource/ip_whitelist`, `POST` to add an entry and
 * `DELETE /resource/ip_whitelist/{id}` to remove one, each change with an authenticator code. Session-only, the
 * read too (the list is a security setting; a program's key has its own `allowed_ips`). Registered in the
 * `resource` scope, whose hooks authenticate and ask a change for the session's CSRF token.
 */
export async function ipWhitelistRoutes(app: FastifyInstance, deps: IdentityRouteDeps): Promise<void> {
  app.get(
    '/resource/ip_whitelist',
    docs(
      'The login IP whitelist of the signed-in user, oldest entry first',
      { response: z.array(ipWhitelistEntryResponse) },
      sessionOnly(),
    ),
    async (request) => listLoginWhitelist(deps, authUser(request).id),
  );

  app.post(
    '/resource/ip_whitelist',
    docs(
      'Add an address or CIDR range to the login IP whitelist (TOTP)',
      {
        body: addIpWhitelistSchema,
        response: ipWhitelistEntryResponse,
        status: 201,
        errors: [403],
        description:
          'Needs two-factor (403 `resource.otp.not_enabled`) and a code not used before. The entry is stored in its canonical form (IPv4-mapped IPv6 as IPv4, a range by its network). Refused with 422 `resource.ip_whitelist.invalid_ip`, `.duplicate`, `.too_many` (20) or `.excludes_current_ip` (the list would shut out the address of this request). Once the list has entries, a login from any other address is refused with 403 `identity.session.ip_not_allowed`.',
      },
      sessionOnly(limit(10)),
    ),
    async (request, reply) => {
      const input = addIpWhitelistSchema.parse(request.body ?? {});
      const entry = await addLoginWhitelistEntry(deps, authUser(request), input, origin(request));
      return reply.status(201).send(entry);
    },
  );

  app.delete(
    '/resource/ip_whitelist/:id',
    docs(
      'Remove an entry of the login IP whitelist (TOTP)',
      {
        params: entryParam,
        query: removeIpWhitelistSchema,
        status: 204,
        errors: [403],
        description:
          "Another user's entry, an unknown and a malformed id answer 404 `resource.ip_whitelist.doesnt_exist` alike. A removal that would leave entries none of which holds this request's address answers 422 `resource.ip_whitelist.excludes_current_ip`.",
      },
      sessionOnly(limit(10)),
    ),
    async (request, reply) => {
      const { id } = entryParam.parse(request.params);
      const { totp_code } = removeIpWhitelistSchema.parse(request.query);
      await removeLoginWhitelistEntry(deps, authUser(request), id, totp_code, origin(request));
      return reply.status(204).send();
    },
  );
}
