import { ERRORS, errorCodes } from '@exchange/shared';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { isDatabaseUnavailable } from '../db/errors.ts';

/**
 * An expected failure with an HTTP status and one or more dotted error codes. `extra` adds fields next to
 * `errors` (e.g. `left`, the login attempts remaining).
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly codes: string[],
    readonly extra: Record<string, unknown> = {},
  ) {
    super(codes.join(', '));
  }
}

/** The retry hint (Retry-After, seconds) of a 503: the condition is passing (a database restart, a busy moment). */
const RETRY_AFTER_SECONDS = '1';

/** Shorthand for a 422 validation failure with the given codes. */
export const invalid = (...codes: string[]): AppError => new AppError(422, codes);
/** Shorthand for a 404 when a record does not exist or is not the caller's. */
export const notFound = (): AppError => new AppError(404, [ERRORS.recordNotFound]);

/** Maps Fastify's own error codes to our status and dotted code. */
const FASTIFY_ERRORS: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, ERRORS.invalidJson],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, ERRORS.invalidJson],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, ERRORS.payloadTooLarge],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, ERRORS.unsupportedMediaType],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, ERRORS.invalidJson],
};

/** PostgreSQL's codes for text it cannot store (a NUL byte, bytes that are not UTF-8). */
const UNSTORABLE_TEXT = new Set(['22021', '22P05']);

/** A NUL byte in the URL, raw or percent-encoded: no path or query parameter of ours may carry one. */
const hasNul = (url: string): boolean => url.includes('\0') || /%00/i.test(url);

/**
 * Fastify's `frameworkErrors`: a URL it cannot decode (e.g. `/%c0%ae`) is answered in our envelope, without
 * echoing the path back.
 */
export function frameworkErrorHandler(
  _error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  void reply.status(400).send({ errors: [ERRORS.invalidParams] });
}

/**
 * Installs the error envelope `{"errors": [...]}` for every failure: zod validation (422), AppError,
 * Fastify parser errors, rate limits (429), text the database cannot store (422), a database that cannot be
 * reached (503, retry later) and anything unexpected (500, logged, no details leaked). A URL with a NUL byte is
 * refused (422) before any route sees it.
 */
export function installErrorHandling(app: FastifyInstance): void {
  // A callback hook, not an async one: every request passes here, and a promise per request is measurable.
  app.addHook('onRequest', (request, reply, done) => {
    if (hasNul(request.url)) reply.status(422).send({ errors: [ERRORS.invalidParams] });
    else done();
  });
  app.setErrorHandler((err: FastifyError | AppError | ZodError, request, reply) => {
    if (err instanceof AppError) {
      if (err.status === 503) reply.header('retry-after', RETRY_AFTER_SECONDS);
      return reply.status(err.status).send({ errors: err.codes, ...err.extra });
    }
    if (err instanceof ZodError) return reply.status(422).send({ errors: errorCodes(err) });
    const mapped = err.code ? FASTIFY_ERRORS[err.code] : undefined;
    if (mapped) return reply.status(mapped[0]).send({ errors: [mapped[1]] });
    if (UNSTORABLE_TEXT.has(String(err.code)))
      return reply.status(422).send({ errors: [ERRORS.invalidParams] });
    if (err.statusCode === 429) return reply.status(429).send({ errors: [ERRORS.rateLimited] });
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.status(err.statusCode).send({ errors: [ERRORS.invalidParams] });
    }
    // Down, restarting or cut off (ECONNREFUSED, 57P01-57P03, class 08, "Connection terminated"): not a bug of
    // this request, and nothing was acknowledged; the client may retry once the database is back.
    // No stack per request: during an outage every request fails alike, and the cause is logged once elsewhere.
    if (isDatabaseUnavailable(err))
      return reply
        .status(503)
        .header('retry-after', RETRY_AFTER_SECONDS)
        .send({ errors: [ERRORS.databaseUnavailable] });
    request.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ errors: [ERRORS.internal] });
  });
}

/** True for paths served by the APIs rather than the web app. */
export function isApiPath(url: string): boolean {
  return url.startsWith('/api/');
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * The methods an API path takes, when the request's own method found no route: a path that exists answers 405
 * with them in `Allow` (as Peatio's Grape does), an unknown path 404. Only asked on the not-found path.
 */
export function allowedMethods(app: FastifyInstance, method: string, url: string): string[] {
  const path = url.split('?')[0] ?? url;
  return METHODS.filter((m) => m !== method && app.findRoute({ method: m, url: path }) !== null);
}
