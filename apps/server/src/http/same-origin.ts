import { ERRORS } from '@exchange/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

/**
 * True when a browser says the request comes from a page of another site: an `Origin` other than ours
 * (`PUBLIC_URL`'s origin, or the host the request was sent to, as behind the development proxy), `Origin: null`
 * (sandboxed or opaque pages), or `Sec-Fetch-Site: cross-site`. Programs send neither header and pass.
 */
export function fromForeignPage(request: FastifyRequest, publicOrigin: string): boolean {
  if (request.headers['sec-fetch-site'] === 'cross-site') return true;
  const origin = request.headers.origin;
  if (origin === undefined || origin === publicOrigin) return false;
  const host = request.headers.host;
  return !(host && (origin === `http://${host}` || origin === `https://${host}`));
}

/**
 * Hook for routes that act on an account without a session (login, registration, verification, password
 * reset): a page of another site must not drive them in a visitor's browser (login CSRF plants the attacker's
 * session; the others would act in the visitor's name). Refused with 403 `authz.origin_not_allowed`.
 */
export function refuseForeignPages(publicUrl: string) {
  const publicOrigin = new URL(publicUrl).origin;
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    if (fromForeignPage(request, publicOrigin)) throw new AppError(403, [ERRORS.originNotAllowed]);
  };
}

/**
 * Hook for routes that create a session: JSON bodies only (415 `server.unsupported_media_type` otherwise). A page
 * of another site can post a form or text without asking; JSON needs a CORS preflight, which we never grant.
 */
export async function jsonBodyOnly(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const type = request.headers['content-type'] ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) throw new AppError(415, [ERRORS.unsupportedMediaType]);
}
