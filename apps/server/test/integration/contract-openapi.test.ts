import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routesOf } from '../../src/http/openapi.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

// Issue 16: OpenAPI documents generated from the routes' zod schemas, served like the peers', covering every route.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { DEV_TOOLS: 'true' });
});
afterAll(() => t.close());

const PREFIXES = ['/api/v2/barong', '/api/v2/peatio', '/api/v2/ranger', '/api/v2/admin', '/api/v2/dev'];
const swagger = async (prefix: string) => {
  const res = await t.app.inject({ method: 'GET', url: `${prefix}/swagger` });
  expect(res.statusCode, prefix).toBe(200);
  return res.json() as {
    openapi: string;
    servers: { url: string }[];
    paths: Record<string, Record<string, unknown>>;
  };
};

describe('API documents', () => {
  it('serves an OpenAPI 3 document per API at <prefix>/swagger', async () => {
    for (const prefix of PREFIXES) {
      const doc = await swagger(prefix);
      expect(doc.openapi).toMatch(/^3\./);
      expect(doc.servers).toEqual([{ url: prefix }]);
    }
  });

  it('lists every API route the server registers (collected by onRoute)', async () => {
    const documented = new Set<string>();
    for (const prefix of PREFIXES) {
      const doc = await swagger(prefix);
      for (const [path, operations] of Object.entries(doc.paths))
        for (const method of Object.keys(operations))
          documented.add(`${method.toUpperCase()} ${prefix}${path === '/' ? '' : path}`);
    }
    const registered = routesOf(t.app)
      .filter((r) => r.url.startsWith('/api/'))
      .map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`);
    expect(registered.length).toBeGreaterThan(100);
    expect(registered.filter((r) => !documented.has(r))).toEqual([]);
    // What the collector saw is what Fastify routes.
    for (const route of routesOf(t.app))
      expect(t.app.hasRoute({ method: route.method as 'GET', url: route.url }), route.url).toBe(true);
    expect(registered).toEqual(
      expect.arrayContaining([
        'GET /api/v2/peatio/public/markets/{id}/order-book',
        'GET /api/v2/ranger/public',
      ]),
    );
  });

  it('describes bodies and parameters from the zod schemas the routes parse', async () => {
    const peatio = await swagger('/api/v2/peatio');
    const place = peatio.paths['/market/orders']?.post as {
      requestBody: {
        content: Record<string, { schema: { properties: Record<string, unknown>; required: string[] } }>;
      };
    };
    const schema = place.requestBody.content['application/json']?.schema;
    expect(Object.keys(schema?.properties ?? {})).toEqual(
      expect.arrayContaining(['market', 'side', 'volume', 'price', 'ord_type']),
    );
    expect(schema?.required).toEqual(expect.arrayContaining(['market', 'side', 'volume']));
    expect(place.requestBody.content['application/x-www-form-urlencoded']).toBeDefined();
    const kline = peatio.paths['/public/markets/{id}/k-line']?.get as {
      parameters: { name: string; in: string }[];
    };
    expect(kline.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(
      expect.arrayContaining(['path:id', 'query:period', 'query:time_from', 'query:time_to', 'query:limit']),
    );
    const barong = await swagger('/api/v2/barong');
    const login = barong.paths['/identity/sessions']?.post as {
      requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
    };
    expect(Object.keys(login.requestBody.content['application/json']?.schema.properties ?? {})).toEqual(
      expect.arrayContaining(['email', 'password', 'otp_code', 'code']),
    );
  });
});
