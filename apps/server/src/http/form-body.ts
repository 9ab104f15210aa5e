import { ERRORS } from '@exchange/shared';
import type { FastifyInstance } from 'fastify';
import { AppError } from './errors.ts';

/** A parsed form value: text, a list of texts (`key[]`, or a repeated key) or one level of `key[field]`. */
export type FormValue = string | string[] | Record<string, string>;

/**
 * Reads an `application/x-www-form-urlencoded` body the way Rack (Peatio, Barong) does for the shapes API clients
 * send: `a=1` is text, `a[]=1&a[]=2` and a repeated `a` are lists, `data[address]=x` is an object of texts.
 * Values stay text; the route's zod schema decides what they mean, as for JSON.
 */
export function parseFormBody(text: string): Record<string, FormValue> {
  const out: Record<string, FormValue> = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const nested = /^([^[\]]+)\[([^[\]]*)\]$/.exec(rawKey);
    const key = nested?.[1] ?? rawKey;
    const field = nested?.[2];
    if (key === '__proto__' || field === '__proto__') continue;
    const current = out[key];
    if (field === undefined || field === '') {
      const listed = field === '' || current !== undefined;
      if (!listed) out[key] = value;
      else if (Array.isArray(current)) current.push(value);
      else out[key] = typeof current === 'string' ? [current, value] : [value];
    } else {
      const object = current && typeof current === 'object' && !Array.isArray(current) ? current : {};
      object[field] = value;
      out[key] = object;
    }
  }
  return out;
}

/**
 * Largest form body read. The forms API clients send are a few fields; the parse is a loop in JavaScript over
 * every pair (a 1 MiB form takes about 0.1 s of the event loop), so forms get a limit far below JSON's.
 */
export const FORM_BODY_LIMIT = 64 * 1024;

/**
 * Lets the routes of `app` take form bodies besides JSON (Peatio and Barong accept both; many bots and API
 * clients send forms). A body that is not text is refused with 400 `server.invalid_json`, like bad JSON.
 */
export function acceptFormBodies(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => {
      if (typeof body !== 'string') return done(new AppError(400, [ERRORS.invalidJson]), undefined);
      done(null, parseFormBody(body));
    },
  );
}
