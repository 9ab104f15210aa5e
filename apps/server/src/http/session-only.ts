import { ERRORS } from '@exchange/shared';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { AppError } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route needs a signed-in browser session: API keys are refused (see {@link sessionOnly}). */
    sessionOnly?: boolean;
  }
}

/**
 * Route options (others kept) of a route that an API key may not call: security settings, profile data,
 * identity documents, card secrets, anything that sends a code. A key lets a program trade and move money under
 * its own checks; it must not let whoever holds it take the account over (set the anti-phishing phrase, read a
 * card number, have codes mailed). Use as `docs('...', schemas, sessionOnly(limit(10)))`.
 */
export function sessionOnly<T extends object>(options?: T): T & { config: { sessionOnly: true } } {
  const base = options ?? ({} as T);
  const config = (base as { config?: object }).config ?? {};
  return { ...base, config: { ...config, sessionOnly: true } };
}

/**
 * Marks every route of `app` (an encapsulated scope) that changes something as {@link sessionOnly}: the user's
 * own security and profile resources, where programs only read.
 */
export function writesSessionOnly(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.some((m) => m !== 'GET' && m !== 'HEAD' && m !== 'OPTIONS'))
      route.config = { ...(route.config ?? {}), sessionOnly: true };
  });
}

/**
 * Refuses an API-key request to a {@link sessionOnly} route with 403 `authz.session_required`, after the route's
 * authentication and before its body is read. One property test per request.
 */
export function refuseApiKeysWhereSessionOnly(app: FastifyInstance): void {
  app.addHook('preParsing', async (request, _reply, payload) => {
    if (request.auth?.via === 'apikey' && request.routeOptions.config.sessionOnly)
      throw new AppError(403, [ERRORS.sessionRequired]);
    return payload;
  });
}
