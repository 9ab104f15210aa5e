import { z } from 'zod';
import { parseUnits } from '../money.ts';

/**
 * The console's custody view (`/api/v2/admin/custody`, issue #26 item 3): per network the hot wallet's balances
 * against their bounds (`wallet_limits`: below `hot_min` the operator refills, above `hot_max` the excess goes to
 * the cold address), the open chain alerts, the recent sweeps and cold transfers, and what the signer refused.
 * Reading needs `ledger.read` (as the solvency view) or `markets.manage`; changing the bounds or resolving an alert
 * needs `markets.manage` (as the network settings). Amounts are decimal strings, times ISO 8601 UTC.
 */
export const ADMIN_CUSTODY_ERRORS = {
  /** No blockchain with this key (404). */
  networkNotFound: 'admin.custody.network_not_found',
  /** The network does not carry this currency (422). */
  currencyNotOnNetwork: 'admin.custody.currency_not_on_network',
  /** A bound is not a non-negative decimal (or null for none) (422). */
  invalidAmount: 'admin.custody.invalid_amount',
  /** A bound has more decimals than the currency's precision: refused, never rounded (422). */
  tooPrecise: 'admin.custody.too_precise',
  /** The minimum is above the maximum (422). */
  minAboveMax: 'admin.custody.min_above_max',
  /** No open alert with this id: unknown, or already resolved (404). */
  alertNotFound: 'admin.custody.alert_not_found',
} as const;

const E = ADMIN_CUSTODY_ERRORS;

/** A non-negative decimal of at most 18 integer and 18 fraction digits (fits `numeric(36, 18)`), or null. */
const bound = z
  .string({ error: E.invalidAmount })
  .trim()
  .regex(/^(0|[1-9]\d{0,17})(\.\d{1,18})?$/, E.invalidAmount)
  .nullable();

/** The exact units of a bound the schema accepted (18 decimals hold any of them). */
const exact = (text: string) => {
  const parsed = parseUnits(text, 18);
  return parsed.ok ? parsed.units : 0n;
};

/**
 * `PUT /custody/limits`: the hot wallet's bounds of one currency on one network. Null is no bound; both null
 * removes the row. The currency's precision is checked by {@link custodyLimitsSchemaFor} (the server looks it up).
 */
export const custodyLimitsSchema = z
  .object({
    blockchain_key: z
      .string({ error: E.networkNotFound })
      .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, E.networkNotFound)
      .max(64, E.networkNotFound),
    currency: z.string({ error: E.currencyNotOnNetwork }).regex(/^[a-z0-9]{2,10}$/, E.currencyNotOnNetwork),
    hot_min: bound,
    hot_max: bound,
  })
  .refine((v) => v.hot_min === null || v.hot_max === null || exact(v.hot_min) <= exact(v.hot_max), {
    error: E.minAboveMax,
    path: ['hot_min'],
  });
export type CustodyLimitsInput = z.infer<typeof custodyLimitsSchema>;

/** {@link custodyLimitsSchema} for a currency of `precision` decimals: more decimals are `too_precise`. */
export function custodyLimitsSchemaFor(precision: number) {
  return custodyLimitsSchema.superRefine((v, ctx) => {
    for (const field of ['hot_min', 'hot_max'] as const) {
      const text = v[field];
      const parsed = text === null ? null : parseUnits(text, precision);
      // A malformed bound already has its own issue (`invalid_amount`).
      if (parsed && !parsed.ok && parsed.error === 'too_precise')
        ctx.addIssue({ code: 'custom', message: E.tooPrecise, path: [field] });
    }
  });
}
