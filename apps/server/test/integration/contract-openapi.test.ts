import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routesOf } from '../../src/http/openapi.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

// Issues 16 and 30: OpenAPI 3.1 documents generated from the zod schemas the routes parse and answer with, served
// like the peers', covering every route, lint-clean. (The live answers are checked in openapi-live-*.test.ts.)
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { DEV_TOOLS: 'true', BASEAPP_COMPAT: 'true' });
});
afterAll(() => t.close());

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const PREFIXES = ['/api/v2/barong', '/api/v2/peatio', '/api/v2/ranger', '/api/v2/admin', '/api/v2/dev'];
type Operation = {
  operationId: string;
  tags: string[];
  security: Record<string, string[]>[];
  responses: Record<string, { content?: Record<string, { schema: unknown }>; $ref?: string }>;
  requestBody?: {
    content: Record<string, { schema: { properties: Record<string, unknown>; required: string[] } }>;
  };
  parameters: { name: string; in: string }[];
};
type Document = {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  tags: { name: string; description: string }[];
  components: {
    securitySchemes: Record<string, { type: string; in?: string; name?: string; scheme?: string }>;
  };
};
const swagger = async (prefix: string) => {
  const res = await t.app.inject({ method: 'GET', url: `${prefix}/swagger` });
  expect(res.statusCode, prefix).toBe(200);
  return res.json() as Document;
};
const operations = (doc: Document) =>
  Object.entries(doc.paths).flatMap(([p, ops]) =>
    Object.entries(ops).map(([m, op]) => ({ path: p, method: m, op })),
  );

describe('API documents', () => {
  it('serves an OpenAPI 3.1 document per API at <prefix>/swagger', async () => {
    for (const prefix of PREFIXES) {
      const doc = await swagger(prefix);
      expect(doc.openapi).toBe('3.1.0');
      expect(doc.servers).toEqual([{ url: prefix }]);
    }
  });

  it('lists every API route the server registers (collected by onRoute)', async () => {
    const documented = new Set<string>();
    for (const prefix of PREFIXES) {
      const doc = await swagger(prefix);
      for (const [p, ops] of Object.entries(doc.paths))
        for (const method of Object.keys(ops))
          documented.add(`${method.toUpperCase()} ${prefix}${p === '/' ? '' : p}`);
    }
    // `:id` is `{id}`, a trailing `*` is `{path}`, and a trailing-slash twin is its path without the slash.
    const registered = routesOf(t.app)
      .filter((r) => r.url.startsWith('/api/'))
      .map(
        (r) =>
          `${r.method} ${r.url
            .replace(/:(\w+)/g, '{$1}')
            .replace(/\/\*$/, '/{path}')
            .replace(/(.)\/$/, '$1')}`,
      );
    expect(registered.length).toBeGreaterThan(150);
    expect(registered.filter((r) => !documented.has(r))).toEqual([]);
    for (const route of routesOf(t.app))
      expect(t.app.hasRoute({ method: route.method as 'GET', url: route.url }), route.url).toBe(true);
  });

  it('gives every operation an operationId, a tag, its security and its success schema', async () => {
    for (const prefix of PREFIXES) {
      const doc = await swagger(prefix);
      const ids = new Set<string>();
      const tags = new Set(doc.tags.map((tag) => tag.name));
      for (const { path: p, method, op } of operations(doc)) {
        const where = `${prefix} ${method} ${p}`;
        expect(op.operationId, where).toMatch(/^[a-z][A-Za-z0-9]+$/);
        expect(ids.has(op.operationId), `${where}: ${op.operationId} twice`).toBe(false);
        ids.add(op.operationId);
        expect(
          op.tags.every((tag) => tags.has(tag)),
          where,
        ).toBe(true);
        expect(Array.isArray(op.security), where).toBe(true);
        const success = Object.entries(op.responses).filter(([status]) => /^(1|2)\d\d$/.test(status));
        expect(success.length, where).toBeGreaterThan(0);
        for (const [status, response] of success) {
          const json = response.content?.['application/json'];
          if (json)
            expect(Object.keys(json.schema as object).length, `${where} ${status}`).toBeGreaterThan(0);
        }
        // Every refusal is the error envelope.
        for (const [status, response] of Object.entries(op.responses))
          if (/^[45]/.test(status) && response.$ref)
            expect(response.$ref, where).toBe(`#/components/responses/Error${status}`);
      }
    }
  });

  it('names the security schemes: session cookie and CSRF header, the HMAC API key headers, the bearer JWT', async () => {
    const peatio = await swagger('/api/v2/peatio');
    expect(peatio.components.securitySchemes).toMatchObject({
      session: { type: 'apiKey', in: 'cookie', name: 'session' },
      csrf: { type: 'apiKey', in: 'header', name: 'X-CSRF-Token' },
      apiKey: { type: 'apiKey', in: 'header', name: 'X-Auth-Apikey' },
      apiNonce: { type: 'apiKey', in: 'header', name: 'X-Auth-Nonce' },
      apiSignature: { type: 'apiKey', in: 'header', name: 'X-Auth-Signature' },
    });
    const place = peatio.paths['/market/orders']?.post;
    expect(place?.security).toEqual([
      { session: [], csrf: [] },
      { apiKey: [], apiNonce: [], apiSignature: [] },
    ]);
    expect(peatio.paths['/public/markets']?.get?.security).toEqual([]);
    const barong = await swagger('/api/v2/barong');
    // A session-only change: no API key.
    expect(barong.paths['/resource/users/password']?.put?.security).toEqual([{ session: [], csrf: [] }]);
    expect(barong.paths['/identity/sessions']?.delete?.security).toEqual([{ session: [] }]);
    const ranger = await swagger('/api/v2/ranger');
    expect(ranger.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(ranger.paths['/private']?.get?.responses['101']).toBeDefined();
  });

  it('describes bodies, parameters and answers from the zod schemas the routes parse and answer with', async () => {
    const peatio = await swagger('/api/v2/peatio');
    const place = peatio.paths['/market/orders']?.post;
    const schema = place?.requestBody?.content['application/json']?.schema;
    expect(Object.keys(schema?.properties ?? {})).toEqual(
      expect.arrayContaining(['market', 'side', 'volume', 'price', 'ord_type']),
    );
    expect(schema?.required).toEqual(expect.arrayContaining(['market', 'side', 'volume']));
    expect(place?.requestBody?.content['application/x-www-form-urlencoded']).toBeDefined();
    expect(place?.responses['201']?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/Order',
    });
    const kline = peatio.paths['/public/markets/{id}/k-line']?.get;
    expect(kline?.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(
      expect.arrayContaining(['path:id', 'query:period', 'query:time_from', 'query:time_to', 'query:limit']),
    );
    const barong = await swagger('/api/v2/barong');
    const login = barong.paths['/identity/sessions']?.post;
    expect(Object.keys(login?.requestBody?.content['application/json']?.schema.properties ?? {})).toEqual(
      expect.arrayContaining(['email', 'password', 'otp_code', 'code']),
    );
    expect(login?.responses['401']).toEqual({ $ref: '#/components/responses/Error401' });
  });

  it('passes redocly lint (the recommended rules, redocly.yaml)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'openapi-lint-'));
    try {
      for (const name of ['barong', 'peatio', 'ranger', 'admin', 'dev'])
        writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(await swagger(`/api/v2/${name}`)));
      copyFileSync(path.join(ROOT, 'redocly.yaml'), path.join(dir, 'redocly.yaml'));
      const output = execFileSync(
        path.join(ROOT, 'node_modules/.bin/redocly'),
        ['lint', '--format', 'stylish'],
        {
          cwd: dir,
          encoding: 'utf8',
          env: {
            ...process.env,
            REDOCLY_TELEMETRY: 'off',
            REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
            NO_COLOR: '1',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      expect(output).not.toMatch(/warning|error/i);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
