import { z } from 'zod';

/**
 * Building blocks of the response schemas: the shapes every answer of the Barong, Peatio and admin APIs is made
 * of. The OpenAPI documents are generated from the schemas built with these, and the contract tests check live
 * answers against those documents.
 */

/** A timestamp as every entity shows it: ISO 8601 in UTC (`2026-05-01T09:30:00.123Z`). */
export const isoTime = z.iso.datetime();

/** A decimal amount or rate on the wire: a string of digits (an optional sign and fraction), never a number. */
export const decimal = z.string().regex(/^-?\d+(\.\d+)?$/);

/** A date (`YYYY-MM-DD`). */
export const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** An answer that only confirms: `{"message": "<dotted code>"}`. */
export const messageResponse = z
  .object({ message: z.string() })
  .meta({ id: 'Message', examples: [{ message: 'identity.otp.sent' }] });

/** An empty object (`{}`): some Peatio calls answer with one. */
export const emptyResponse = z.object({}).meta({ id: 'Empty' });

/**
 * The error envelope of every failure: dotted codes, never sentences. Some failures add fields next to `errors`
 * (a login's `left` attempts, the `missing_otp` step), so other properties are allowed.
 */
export const errorEnvelope = z
  .looseObject({ errors: z.array(z.string().regex(/^[a-z0-9_]+(\.[a-z0-9_]+)+$/)).min(1) })
  .meta({ id: 'Errors', examples: [{ errors: ['identity.session.invalid_params'] }] });
