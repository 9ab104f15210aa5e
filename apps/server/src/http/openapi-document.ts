import { errorEnvelope } from '@exchange/shared';
import type { CollectedRoute, RouteContent, RouteDocs, RouteSecurity } from './openapi.ts';
import { type Json, parameters, SchemaSet } from './openapi-schemas.ts';
import { defaultSecurity, SAFE, SECURITY_SCHEMES, securityOf } from './openapi-security.ts';

/** What a document says about itself. */
export interface DocumentInfo {
  title: string;
  description: string;
  version: string;
  /** A sentence per tag (the first segment of a path); tags without one get a generic sentence. */
  tags?: Record<string, string>;
}

/** Why each error status happens, for the document's shared responses. */
const ERROR_TEXT: Record<number, string> = {
  400: 'The body is unreadable (not JSON, or a malformed form)',
  401: 'No or no valid session, CSRF token, API key signature or JWT',
  403: 'Not allowed: an API key where a browser session is needed, a page of another site, or a missing permission',
  404: 'No such record, or not yours',
  405: 'The path exists, with other methods (see Allow)',
  409: 'The request conflicts with the current state',
  413: 'The body is too large',
  415: 'The content type is not taken here',
  422: 'Invalid input, or refused by a rule; the codes say which',
  429: 'Too many requests; wait and retry',
  500: 'An unexpected failure (nothing about it is told)',
  502: 'A provider behind the call failed',
  503: 'The database or the exchange core is not available; retry (Retry-After)',
  504: 'A provider behind the call did not answer in time',
};

/** `:id` segments as OpenAPI writes them (`{id}`), a trailing `*` as `{path}`, and their names. */
export function openApiPath(url: string): { path: string; names: string[] } {
  const names: string[] = [];
  const path = url
    .replace(/:([A-Za-z_]\w*)/g, (_m, name: string) => {
      names.push(name);
      return `{${name}}`;
    })
    .replace(/\/\*$/, () => {
      names.push('path');
      return '/{path}';
    });
  return { path, names };
}

const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** `GET /public/markets/{id}/k-line` → `getPublicMarketsByIdKLine`: unique per method and path. */
export function operationId(method: string, path: string): string {
  const words = path
    .split('/')
    .filter(Boolean)
    .map((segment) => (segment.startsWith('{') ? `by_${segment.slice(1, -1)}` : segment));
  return (
    method.toLowerCase() +
    words
      .flatMap((w) => w.split(/[^A-Za-z0-9]+/))
      .filter(Boolean)
      .map(capital)
      .join('')
  );
}

/** The tag of a path: its first segment (its extension dropped); the documents themselves are `documents`. */
export function tagOf(path: string): string {
  const first = path.split('/').filter(Boolean)[0] ?? 'root';
  if (first === 'swagger') return 'documents';
  return first.replace(/\.\w+$/, '');
}

const binary = (media: string) => [media, { type: 'string', contentMediaType: media }] as [string, Json];
/** The media types of each kind of answer that is not JSON. */
const MEDIA: Record<Exclude<RouteContent, 'json' | 'none' | 'websocket'>, [string, Json][]> = {
  csv: [['text/csv', { type: 'string' }]],
  html: [['text/html', { type: 'string' }]],
  text: [['text/plain', { type: 'string' }]],
  // Identity documents and card holder images: what was uploaded.
  file: [binary('image/jpeg'), binary('image/png'), binary('application/pdf')],
  // The user's data export: an archive written as it is sent.
  zip: [binary('application/zip')],
};

/** The success answer of a route. */
function successResponse(schemas: SchemaSet, docs: RouteDocs, status: number): Json {
  const content = docs.content ?? (status === 204 ? 'none' : 'json');
  const headers = docs.paged
    ? {
        Total: { $ref: '#/components/headers/Total' },
        Page: { $ref: '#/components/headers/Page' },
        'Per-Page': { $ref: '#/components/headers/PerPage' },
      }
    : undefined;
  const description = content === 'websocket' ? 'Switching Protocols: the websocket is open' : docs.summary;
  if (content === 'none' || content === 'websocket') return { description, ...(headers ? { headers } : {}) };
  const media: [string, Json][] =
    content === 'json'
      ? [['application/json', docs.response ? schemas.convert(docs.response, 'output') : {}]]
      : MEDIA[content];
  return {
    description,
    ...(headers ? { headers } : {}),
    content: Object.fromEntries(media.map(([type, schema]) => [type, { schema }])),
  };
}

/** The error statuses of a route: what every route of its kind may answer, and its own. */
export function errorStatuses(
  method: string,
  docs: RouteDocs,
  security: RouteSecurity,
  hasParams: boolean,
): number[] {
  const statuses = new Set<number>([422, 429, 500, 503, ...(docs.errors ?? [])]);
  if (!SAFE.has(method)) for (const s of [400, 413, 415]) statuses.add(s);
  if (hasParams) statuses.add(404);
  if (security !== 'none') {
    statuses.add(401);
    statuses.add(403);
  }
  return [...statuses].sort((a, b) => a - b);
}

/** The success status of a route. */
export const successStatus = (docs: RouteDocs) => docs.status ?? (docs.content === 'websocket' ? 101 : 200);

/**
 * An OpenAPI 3.1 document of the routes under `prefix`, built from the routes' own {@link RouteDocs}: paths are
 * relative to the prefix (the server URL); parameters, bodies and answers are the JSON Schemas of the zod schemas
 * the handlers parse and answer with; every error is the envelope, per status; security schemes, operationIds
 * and tags. Routes without docs are left out (the route test lists them), as are trailing-slash twins.
 */
export function openApiDocument(
  routes: readonly CollectedRoute[],
  prefix: string,
  info: DocumentInfo,
): Record<string, unknown> {
  const schemas = new SchemaSet();
  const paths: Record<string, Record<string, unknown>> = {};
  const tags = new Set<string>();
  const urls = new Set(routes.map((r) => `${r.method} ${r.url}`));
  const usedErrors = new Set<number>();
  const usedSchemes = new Set<string>();
  let anyPaged = false;
  for (const route of routes) {
    const docs = route.docs;
    if (!docs || !(route.url === prefix || route.url.startsWith(`${prefix}/`))) continue;
    if (route.url.endsWith('/') && urls.has(`${route.method} ${route.url.slice(0, -1)}`)) continue;
    const { path, names } = openApiPath(route.url.slice(prefix.length) || '/');
    const security = docs.security ?? defaultSecurity(prefix, path, route.sessionOnly);
    const status = successStatus(docs);
    const errors = errorStatuses(route.method, docs, security, names.length > 0);
    if (!docs.htmlErrors) for (const e of errors) usedErrors.add(e);
    const tag = tagOf(path);
    tags.add(tag);
    anyPaged ||= docs.paged === true;
    const requirements = securityOf(security, route.method);
    for (const requirement of requirements)
      for (const name of Object.keys(requirement)) usedSchemes.add(name);
    const operation: Json = {
      operationId: operationId(route.method, path),
      tags: [tag],
      summary: docs.summary,
      ...(docs.description ? { description: docs.description } : {}),
      security: requirements,
      parameters: [
        ...parameters(schemas, docs.params, 'path', names),
        ...parameters(schemas, docs.query, 'query', []),
      ],
      responses: {
        [String(status)]: successResponse(schemas, docs, status),
        ...Object.fromEntries(
          (docs.more ?? []).map((m) => [
            String(m.status),
            {
              description: m.description,
              ...(m.response
                ? { content: { 'application/json': { schema: schemas.convert(m.response, 'output') } } }
                : {}),
            },
          ]),
        ),
        ...Object.fromEntries(
          errors.map((e) => [
            String(e),
            docs.htmlErrors
              ? {
                  description: ERROR_TEXT[e] ?? 'Refused',
                  content: { 'text/html': { schema: { type: 'string' } } },
                }
              : { $ref: `#/components/responses/Error${e}` },
          ]),
        ),
      },
    };
    if (docs.body || docs.bodyType === 'raw' || docs.bodyType === 'multipart') {
      const schema = docs.body ? schemas.convert(docs.body, 'input') : { type: 'object' };
      operation.requestBody = {
        required: true,
        content:
          docs.bodyType === 'multipart'
            ? { 'multipart/form-data': { schema: docs.body ? schema : { type: 'object' } } }
            : docs.bodyType === 'json' || docs.bodyType === 'raw'
              ? { 'application/json': { schema } }
              : { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } },
      };
    }
    paths[path] = { ...(paths[path] ?? {}), [route.method.toLowerCase()]: operation };
  }
  const envelope = schemas.convert(errorEnvelope, 'output');
  return {
    openapi: '3.1.0',
    info: {
      title: info.title,
      version: info.version,
      description: info.description,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: prefix }],
    tags: [...tags].sort().map((name) => ({
      name,
      description: info.tags?.[name] ?? `Routes under /${name}`,
    })),
    paths,
    components: {
      schemas: schemas.components,
      securitySchemes: Object.fromEntries(
        Object.entries(SECURITY_SCHEMES).filter(([name]) => usedSchemes.has(name)),
      ),
      ...(anyPaged
        ? {
            headers: {
              Total: { description: 'How many items the list has, all pages', schema: { type: 'integer' } },
              Page: { description: 'The page answered (from 1)', schema: { type: 'integer' } },
              PerPage: { description: 'Items per page (`limit`)', schema: { type: 'integer' } },
            },
          }
        : {}),
      responses: Object.fromEntries(
        [...usedErrors]
          .sort((a, b) => a - b)
          .map((s) => [
            `Error${s}`,
            {
              description: ERROR_TEXT[s] ?? 'Refused',
              content: { 'application/json': { schema: envelope } },
            },
          ]),
      ),
    },
  };
}
