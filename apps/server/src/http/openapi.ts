import type { FastifyInstance, RouteOptions } from 'fastify';
import { z } from 'zod';

/**
 * What a route tells the API documents about itself: a summary and the very zod schemas its handler parses
 * (`body`, `query`, `params`), so the documents are generated from the code that validates requests.
 */
export interface RouteDocs {
  summary: string;
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  /**
   * `multipart` for uploads; `json` for JSON only (login); unset: JSON, and forms too on the Barong and Peatio
   * APIs.
   */
  bodyType?: 'json' | 'multipart';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** See {@link RouteDocs}; every route under `/api/` declares one (a test checks it). */
    docs?: RouteDocs;
  }
}

/**
 * Route options with the route's {@link RouteDocs} added to `options.config.docs` (other options kept):
 * `app.get('/public/markets/:id/depth', docs('Depth of a market', { params, query }), handler)`.
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
}

const collected = new WeakMap<FastifyInstance, CollectedRoute[]>();

/** The routes {@link collectRoutes} saw on `app` (empty when it was not called). */
export function routesOf(app: FastifyInstance): readonly CollectedRoute[] {
  return collected.get(app) ?? [];
}

/**
 * Collects every route Fastify registers from now on (its `onRoute` hook); call it on the root instance before
 * any route is added. HEAD routes Fastify adds for GET are left out.
 */
export function collectRoutes(app: FastifyInstance): CollectedRoute[] {
  const routes: CollectedRoute[] = [];
  collected.set(app, routes);
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      const docs = (route.config as { docs?: RouteDocs } | undefined)?.docs;
      routes.push({ method, url: route.url, ...(docs ? { docs } : {}) });
    }
  });
  return routes;
}

/** JSON Schema of a zod schema as a client sends it (input side; refinements and transforms are not shown). */
function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return rest;
}

/** The parameters of an object schema, one per property, in `location`. */
function parameters(schema: z.ZodType | undefined, location: 'query' | 'path', pathNames: string[]) {
  const names = new Set(pathNames);
  const out: Record<string, unknown>[] = [];
  if (schema) {
    const json = jsonSchema(schema) as { properties?: Record<string, unknown>; required?: string[] };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      names.delete(name);
      const required = location === 'path' || (json.required ?? []).includes(name);
      out.push({ name, in: location, required, schema: property });
    }
  }
  // Path parameters a route reads without a schema are still listed.
  if (location === 'path')
    for (const name of names) out.push({ name, in: 'path', required: true, schema: { type: 'string' } });
  return out;
}

/** `:id` segments as OpenAPI writes them (`{id}`), and their names. */
function openApiPath(url: string): { path: string; names: string[] } {
  const names: string[] = [];
  const path = url.replace(/:([A-Za-z_]\w*)/g, (_m, name: string) => {
    names.push(name);
    return `{${name}}`;
  });
  return { path, names };
}

/** The error envelope every failure answers with. */
const ERROR_ENVELOPE = {
  type: 'object',
  required: ['errors'],
  properties: { errors: { type: 'array', items: { type: 'string', description: 'A dotted error code' } } },
};

/**
 * An OpenAPI 3.1 document of the routes under `prefix`, built from the routes' own {@link RouteDocs}: paths are
 * relative to the prefix (the server URL), bodies and parameters are the JSON Schemas of the zod schemas the
 * handlers parse. Routes without docs are left out (the route test lists them).
 */
export function openApiDocument(
  routes: readonly CollectedRoute[],
  prefix: string,
  info: { title: string; description: string },
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    if (!route.docs || !(route.url === prefix || route.url.startsWith(`${prefix}/`))) continue;
    const { path, names } = openApiPath(route.url.slice(prefix.length) || '/');
    const { docs } = route;
    const operation: Record<string, unknown> = {
      summary: docs.summary,
      parameters: [...parameters(docs.params, 'path', names), ...parameters(docs.query, 'query', [])],
      responses: {
        default: {
          description: 'Success (2xx) with the entity, or a failure with the error envelope',
          content: { 'application/json': { schema: ERROR_ENVELOPE } },
        },
      },
    };
    if (docs.body) {
      const schema = jsonSchema(docs.body);
      operation.requestBody = {
        content:
          docs.bodyType === 'multipart'
            ? { 'multipart/form-data': { schema } }
            : docs.bodyType === 'json'
              ? { 'application/json': { schema } }
              : { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } },
      };
    }
    paths[path] = { ...(paths[path] ?? {}), [route.method.toLowerCase()]: operation };
  }
  return { openapi: '3.1.0', info: { version: '2', ...info }, servers: [{ url: prefix }], paths };
}
