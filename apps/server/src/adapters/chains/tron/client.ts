import { parseJsonKeeping } from '../json-numbers.ts';
/**
 * A java-tron full node's HTTP API client (TronGrid or a node of our own): POST with a JSON body, `visible: true`
 * (Base58Check addresses, UTF-8 messages), the API key in `TRON-PRO-API-KEY` when there is one. Integers in the
 * answers stay exact: a JSON number too long for a double is read as a decimal string (see {@link int}).
 */

/** The request did not get an answer (timeout, refused or dropped connection). */
export class TronUnreachableError extends Error {
  constructor(path: string, cause: unknown) {
    super(`${path}: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'TronUnreachableError';
  }
}

/** The node (or the gateway in front of it) answered with an HTTP error status. */
export class TronHttpError extends Error {
  constructor(
    readonly status: number,
    path: string,
    body: string,
  ) {
    super(`${path}: HTTP ${status} ${body.slice(0, 200)}`);
    this.name = 'TronHttpError';
  }
}

/** The node could not serve the request: `{"Error": "class <exception> : <message>"}`. */
export class TronRequestError extends Error {
  constructor(path: string, error: string) {
    super(`${path}: ${error}`);
    this.name = 'TronRequestError';
  }
}

export type Json = Record<string, unknown>;

export interface TronClient {
  post(path: string, body?: Json): Promise<unknown>;
  /** `post` for endpoints answering an object; a `{"Error": …}` answer throws {@link TronRequestError}. */
  call(path: string, body?: Json): Promise<Json>;
}

export function createTronClient(options: {
  apiUrl: string;
  apiKey?: string;
  timeoutMs?: number;
}): TronClient {
  const base = options.apiUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 30_000;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (options.apiKey) headers['TRON-PRO-API-KEY'] = options.apiKey;

  async function post(path: string, body: Json = {}): Promise<unknown> {
    let response: Response;
    let text: string;
    try {
      response = await fetch(base + path, {
        method: 'POST',
        headers,
        body: stringifyExact({ ...body, visible: true }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      throw new TronUnreachableError(path, error);
    }
    if (!response.ok) throw new TronHttpError(response.status, path, text);
    try {
      return parseJsonExact(text);
    } catch {
      throw new TronHttpError(response.status, path, `not JSON: ${text}`);
    }
  }

  return {
    post,
    async call(path, body) {
      const answer = await post(path, body);
      if (!answer || typeof answer !== 'object' || Array.isArray(answer)) {
        throw new TronRequestError(path, `unexpected answer ${JSON.stringify(answer).slice(0, 200)}`);
      }
      const object = answer as Json;
      if (typeof object.Error === 'string') throw new TronRequestError(path, object.Error);
      return object;
    },
  };
}

/** An int64 of an answer (a JSON number or the decimal string a long one was read as); `fallback` when absent. */
export function int(value: unknown, fallback = 0n): bigint {
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  throw new Error(`not an integer: ${String(value)}`);
}

/** JSON text with bigint values written as JSON numbers (sun amounts past 2^53 included). */
function stringifyExact(value: unknown): string {
  const marker = '\u0000bigint:';
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${marker}${v}` : v));
  return text.replace(/"\\u0000bigint:(-?\d+)"/g, '$1');
}

/** JSON.parse, with integer literals of 16 digits or more (beyond a double's exact range) read as strings. */
function parseJsonExact(text: string): unknown {
  return parseJsonKeeping(text, (literal) =>
    !/[.eE]/.test(literal) && literal.replace('-', '').length >= 16 ? literal : undefined,
  );
}
