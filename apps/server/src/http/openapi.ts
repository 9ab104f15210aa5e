import type { FastifyInstance, RouteOptions } from 'fastify';
import type { z } from 'zod';

/** Who may call a route, as its API document says (see openapi-security.ts for the schemes). */
export type RouteSecurity =
  /** Anyone. */
  | 'none'
  /** A browser session (with its CSRF token for a change). */
  | 'session'
  /** A browser session without the CSRF token (logout). */
  | 'sessionNoCsrf'
  /** A browser session or a signed API key. */
  | 'sessionOrKey'
  /** Ranger's `/private`: a session, an API key, a bearer JWT (or a first `jwt` message). */
  | 'stream';

/** What the success answer of a route carries. */
export type RouteContent = 'json' | 'csv' | 'html' | 'text' | 'file' | 'zip' | 'none' | 'websocket';

/**
 * What a route tells the API documents about itself: a summary and the very zod schemas its handler parses
 * (`body`, `query`, `params`) and answers with (`response`), so the documents are generated from the code that
 * validates requests and responses.
 */
export interface RouteDocs {
  summary: string;
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  /**
   * `multipart` for uploads; `json` for JSON only (login); `raw` for signed webhooks (any bytes); unset: JSON, and
   * forms too on the Barong and Peatio APIs.
   */
  bodyType?: 'json' | 'multipart' | 'raw';
  /** The zod schema of the success answer's JSON body. */
  response?: z.ZodType;
  /** The success status: 200 unless given (201 for a creation, 202, 204 without a body, 101 for a socket). */
  status?: number;
  /** The success answer's content: JSON (the default), CSV, a page, a file, a ZIP archive, nothing or a websocket. */
  content?: RouteContent;
  /** Who may call it; unset: what its path says (see `defaultSecurity` in openapi-security.ts). */
  security?: RouteSecurity;
  /** Error statuses it may answer besides the ones every route of its kind may. */
  errors?: number[];
  /** Longer text for the document. */
  description?: string;
  /** The route is Peatio's (or Barong's) paged list: it answers `Total`, `Page` and `Per-Page` headers. */
  paged?: boolean;
  /** Its refusals are pages (`text/html`), not the JSON envelope: a link opened in a browser. */
  htmlErrors?: boolean;
  /** Other success answers it may give (another status, with or without a JSON body). */
  more?: { status: number; description: string; response?: z.ZodType }[];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** See {@link RouteDocs}; every route under `/api/` declares one (a test checks it). */
    docs?: RouteDocs;
  }
}

/**
 * Route options with the route's {@link RouteDocs} added to `options.config.docs` (other options kept):
 * `app.get('/public/markets/:id/depth', docs('Depth of a market', { params, query, response }), handler)`.
 */
export function docs<const T extends object = Record<never, never>>(
  summary: string,
  schemas: Omit<RouteDocs, 'summary'> = {},
  options?: T,
): T & { config: { docs: RouteDocs } } {
  const base = options ?? ({} as T);
  const config = (base as { config?: object }).config ?? {};
  return { ...base, config: { ...config, docs: { summary, ...schemas } } };
}

/** One documented route as collected from Fastify. */
export interface CollectedRoute {
  method: string;
  url: string;
  docs?: RouteDocs;
  /** The route is session-only (`sessionOnly`, `writesSessionOnly`): API keys are refused. */
  sessionOnly: boolean;
}

const collected = new WeakMap<FastifyInstance, CollectedRoute[]>();

/** The routes {@link collectRoutes} saw on `app` (empty when it was not called). */
export function routesOf(app: FastifyInstance): readonly CollectedRoute[] {
  return collected.get(app) ?? [];
}

/**
 * Collects every route Fastify registers from now on (its `onRoute` hook); call it on the root instance before
 * any route is added. HEAD routes Fastify adds for GET are left out. A route's config is read when asked for: a
 * scope's own hook (`writesSessionOnly`) may still change it after this one ran.
 */
export function collectRoutes(app: FastifyInstance): CollectedRoute[] {
  const routes: CollectedRoute[] = [];
  collected.set(app, routes);
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const config = () => route.config as { docs?: RouteDocs; sessionOnly?: boolean } | undefined;
    for (const method of methods) {
      if (method === 'HEAD') continue;
      routes.push({
        method,
        url: route.url,
        get docs() {
          return config()?.docs;
        },
        get sessionOnly() {
          return config()?.sessionOnly === true;
        },
      });
    }
  });
  return routes;
}
