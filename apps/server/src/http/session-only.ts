import { ERRORS } from '@exchange/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { AppError } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route needs a signed-in browser session: API keys are refused (see {@link sessionOnly}). */
    sessionOnly?: boolean;
  }
}

/**
 * Refuses an API-key request with 403 `authz.session_required`, after the route's authentication (onRequest) and
 * before its body is read. A route-level hook: the routes that are not session-only pay nothing for it.
 */
async function refuseApiKey(
  request: FastifyRequest,
  _reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  if (request.auth?.via === 'apikey') throw new AppError(403, [ERRORS.sessionRequired]);
  return payload;
}

type PreParsing = RouteOptions['preParsing'];

/** `hooks` with {@link refuseApiKey} first. */
function withRefusal(hooks: PreParsing): NonNullable<PreParsing> {
  const rest = hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
  return [refuseApiKey, ...rest] as NonNullable<PreParsing>;
}

/**
 * Route options (others kept) of a route that an API key may not call: security settings, profile data,
 * identity documents, card secrets, anything that sends a code. A key lets a program trade and move money under
 * its own checks; it must not let whoever holds it take the account over (set the anti-phishing phrase, read a
 * card number, have codes mailed). Use as `docs('...', schemas, sessionOnly(limit(10)))`.
 */
export function sessionOnly<T extends object>(
  options?: T,
): T & { config: { sessionOnly: true }; preParsing: NonNullable<PreParsing> } {
  const base = options ?? ({} as T);
  const config = (base as { config?: object }).config ?? {};
  const preParsing = withRefusal((base as { preParsing?: PreParsing }).preParsing);
  return { ...base, config: { ...config, sessionOnly: true }, preParsing };
}

/**
 * Marks every route of `app` (an encapsulated scope) that changes something as {@link sessionOnly}: the user's
 * own security and profile resources, where programs only read.
 */
export function writesSessionOnly(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.some((m) => m !== 'GET' && m !== 'HEAD' && m !== 'OPTIONS')) {
      route.config = { ...(route.config ?? {}), sessionOnly: true };
      route.preParsing = withRefusal(route.preParsing);
    }
  });
}
