import { z } from 'zod';

/** Peatio's codes for a bad `limit` or `page` of a paged list (422). */
export const PAGING_ERRORS = {
  /** `limit` is not an integer. */
  nonIntegerLimit: 'pagination.non_integer_limit',
  /** `limit` is not within 1-1000. */
  invalidLimit: 'pagination.invalid_limit',
  /** `page` is not an integer. */
  nonIntegerPage: 'pagination.non_integer_page',
  /** `page` is below 1. */
  invalidPage: 'pagination.invalid_page',
} as const;

/**
 * Peatio's paging of a list (`use :pagination`): `page` from 1, `limit` 1-1000 (100 when not given); the answer
 * carries `Total`, `Page` and `Per-Page` headers.
 */
export const peatioPaging = {
  page: z.coerce
    .number({ error: PAGING_ERRORS.nonIntegerPage })
    .int(PAGING_ERRORS.nonIntegerPage)
    .min(1, PAGING_ERRORS.invalidPage)
    .default(1),
  limit: z.coerce
    .number({ error: PAGING_ERRORS.nonIntegerLimit })
    .int(PAGING_ERRORS.nonIntegerLimit)
    .min(1, PAGING_ERRORS.invalidLimit)
    .max(1000, PAGING_ERRORS.invalidLimit)
    .default(100),
};
