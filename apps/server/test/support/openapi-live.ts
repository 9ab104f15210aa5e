import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { openApiPath } from '../../src/http/openapi-document.ts';
import type { RecordedResponse } from '../../src/http/response-recorder.ts';
import { createTestApp, type TestApp } from './app.ts';

/**
 * The live check of the API documents: an app that records every answer it sends, and a checker that validates
 * each recorded answer against the document of its API with ajv (the status is documented, the body fits the
 * schema of that status, a paged list carries its headers) and tells which documented operations no test call
 * answered with a success.
 */

type Json = Record<string, unknown>;
type Operation = { responses: Record<string, Json> };

/** The APIs and their prefixes. */
export const APIS = ['barong', 'peatio', 'ranger', 'admin', 'dev'] as const;
export type ApiName = (typeof APIS)[number];
const prefixOf = (api: ApiName) => `/api/v2/${api}`;

/** A test app that records its answers. */
export async function recordingApp(
  env: Record<string, string> = {},
): Promise<{ t: TestApp; answers: RecordedResponse[] }> {
  const answers: RecordedResponse[] = [];
  const t = await createTestApp(
    { responseRecorder: (a) => answers.push(a) },
    { DEV_TOOLS: 'true', BASEAPP_COMPAT: 'true', ...env },
  );
  return { t, answers };
}

/** The documents of the APIs, as the app serves them. */
export async function documents(t: TestApp): Promise<Record<ApiName, Json>> {
  const out = {} as Record<ApiName, Json>;
  for (const api of APIS) {
    const res = await t.app.inject({ method: 'GET', url: `${prefixOf(api)}/swagger` });
    if (res.statusCode !== 200) throw new Error(`${api}/swagger: ${res.statusCode}`);
    out[api] = res.json();
  }
  return out;
}

/** Where an answer's operation is in its document: its API, path and method, or undefined (not an API route). */
function locate(answer: RecordedResponse) {
  for (const api of APIS) {
    const prefix = prefixOf(api);
    if (answer.route !== prefix && !answer.route.startsWith(`${prefix}/`)) continue;
    const route = answer.route.endsWith('/') ? answer.route.slice(0, -1) : answer.route;
    return {
      api,
      path: openApiPath(route.slice(prefix.length) || '/').path,
      method: answer.method.toLowerCase(),
    };
  }
  return undefined;
}

const pointerEscape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Checks every answer against the documents; returns the failures (empty when every answer is as documented).
 * Answers of routes that are not in a document (the web app, the simulators) are skipped.
 */
export function checkAnswers(docs: Record<ApiName, Json>, answers: readonly RecordedResponse[]): string[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  for (const api of APIS) ajv.addSchema(docs[api], api);
  const failures: string[] = [];
  for (const answer of answers) {
    const where = locate(answer);
    if (!where) continue;
    const label = `${answer.method} ${answer.url} → ${answer.status}`;
    const doc = docs[where.api] as { paths: Record<string, Record<string, Operation>>; components: Json };
    const operation = doc.paths[where.path]?.[where.method];
    if (!operation) {
      failures.push(`${label}: not documented (${where.api} ${where.method} ${where.path})`);
      continue;
    }
    let response = operation.responses[String(answer.status)];
    if (!response) {
      failures.push(`${label}: status not documented`);
      continue;
    }
    let pointer = `${where.api}#/paths/${pointerEscape(where.path)}/${where.method}/responses/${answer.status}`;
    const ref = response.$ref;
    if (typeof ref === 'string') {
      const name = ref.split('/').pop() ?? '';
      response = (doc.components.responses as Record<string, Json>)[name] as Json;
      pointer = `${where.api}#/components/responses/${name}`;
    }
    const content = response.content as Record<string, { schema: Json }> | undefined;
    const headers = response.headers as Record<string, unknown> | undefined;
    for (const header of Object.keys(headers ?? {}))
      if (answer.headers[header.toLowerCase()] === undefined) failures.push(`${label}: no ${header} header`);
    if (!content) {
      if (answer.body !== '') failures.push(`${label}: a body where none is documented`);
      continue;
    }
    const media = Object.keys(content).find((m) => answer.contentType.startsWith(m));
    if (!media) {
      failures.push(`${label}: content type ${answer.contentType} not documented (${Object.keys(content)})`);
      continue;
    }
    if (media !== 'application/json') continue;
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      failures.push(`${label}: not JSON`);
      continue;
    }
    const validate = ajv.getSchema(`${pointer}/content/application~1json/schema`);
    if (!validate) {
      failures.push(`${label}: no schema at ${pointer}`);
      continue;
    }
    if (!validate(body))
      failures.push(
        `${label}: ${ajv.errorsText(validate.errors, { separator: '; ' })} in ${answer.body.slice(0, 300)}`,
      );
  }
  return failures;
}

/** The documented operations of `apis` that no answer covered with a success (2xx, or 101 for a websocket). */
export function uncovered(
  docs: Record<ApiName, Json>,
  answers: readonly RecordedResponse[],
  apis: readonly ApiName[],
  coveredElsewhere: readonly string[] = [],
): string[] {
  const done = new Set(coveredElsewhere);
  for (const answer of answers) {
    const where = locate(answer);
    if (where && answer.status >= 200 && answer.status < 300)
      done.add(`${where.api} ${where.method.toUpperCase()} ${where.path}`);
  }
  const missing: string[] = [];
  for (const api of apis) {
    const paths = (docs[api] as { paths: Record<string, Record<string, unknown>> }).paths;
    for (const [path, operations] of Object.entries(paths))
      for (const method of Object.keys(operations)) {
        const key = `${api} ${method.toUpperCase()} ${path}`;
        if (!done.has(key)) missing.push(key);
      }
  }
  return missing;
}
