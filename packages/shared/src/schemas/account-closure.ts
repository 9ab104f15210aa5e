import { z } from 'zod';
import { ERRORS } from '../errors.ts';
import { isoTime } from '../responses/common.ts';
import { textField } from '../validation.ts';

/**
 * Error codes of account closure (issue 31, part 4: `/resource/users/closure`). Each is answered as
 * `{"errors":[code]}`.
 */
export const CLOSURE_ERRORS = {
  /** The password does not match the account's (422). */
  invalidPassword: 'resource.closure.invalid_password',
  /** Two-factor is on and no authenticator code came with the request (422). */
  missingOtp: 'resource.closure.missing_otp',
  /** The authenticator code is wrong (422; a replayed one answers `resource.otp.code_used`). */
  invalidOtp: 'resource.closure.invalid_otp',
  /** The user has open orders: cancel them first (422). */
  openOrders: 'resource.closure.open_orders',
  /**
   * A named address is not an activated beneficiary of the user for that currency (422). Another user's
   * beneficiary, an unknown id, a pending one and one of another currency answer this alike.
   */
  invalidBeneficiary: 'resource.closure.invalid_beneficiary',
  /** A currency was named twice, or has nothing left to withdraw (already on its way, or no balance) (422). */
  nothingToWithdraw: 'resource.closure.nothing_to_withdraw',
  /**
   * The remaining balance is below the network's minimum withdrawal: it cannot be sent, it waits for the
   * operator's conversion after 30 days (422).
   */
  belowMinimum: 'resource.closure.below_minimum',
  /**
   * Withdrawals are not possible for this account yet (below level 3, or within the hold after a password or
   * two-factor change): balances wait (403).
   */
  withdrawNotPermitted: 'resource.closure.withdraw_not_permitted',
  /** No closure of this account is under way (404). */
  notFound: 'resource.closure.doesnt_exist',
  /** Something was already withdrawn for the closure: it can no longer be cancelled (422). */
  notCancelable: 'resource.closure.not_cancelable',
} as const;

/** Days after a closure request without an address after which the operator may convert a balance to fiat. */
export const CLOSURE_CONVERSION_DAYS = 30;
/** Years a closed account's records and its correspondence are kept (the AML policy), then erased. */
export const CLOSURE_RETENTION_YEARS = { records: 8, correspondence: 5 } as const;

/** The address named for one currency's remaining balance: an activated beneficiary of the user. */
export const closureAddressSchema = z.object({
  currency: z.string({ error: ERRORS.invalidParams }).min(1).max(20),
  beneficiary_id: z.coerce.number({ error: CLOSURE_ERRORS.invalidBeneficiary }).int().positive(),
});

/**
 * `POST /resource/users/closure`: ask to close the account, or (with one under way) name addresses for what is
 * left. The password always; the authenticator code when two-factor is on.
 */
export const requestClosureSchema = z.object({
  password: textField(ERRORS.passwordRequired, [[(v) => v.length > 0, ERRORS.passwordRequired]]),
  otp_code: textField(ERRORS.totpInvalid, [[(v) => /^\d{6}$/.test(v), ERRORS.totpInvalid]]).optional(),
  addresses: z.array(closureAddressSchema).max(50).default([]),
});
export type RequestClosureInput = z.input<typeof requestClosureSchema>;

/** One currency the user still holds, and the closure's withdrawal of it, if any. */
export const closureBalanceResponse = z.object({
  currency: z.string(),
  /** Available, to be withdrawn. */
  balance: z.string(),
  /** Held (an open withdrawal). */
  locked: z.string(),
  /** The closure's latest withdrawal of this currency. */
  withdrawal: z
    .object({
      id: z.number(),
      state: z.string(),
      amount: z.string(),
      fee: z.string(),
      rid: z.string(),
      blockchain_key: z.string(),
    })
    .nullable(),
});

/** `GET /resource/users/closure`: the closure under way (or none) and what is left. */
export const closureResponse = z
  .object({
    /**
     * `none` (nothing asked), `open` (withdrawing or waiting for addresses), `closed` (only in the answer of the
     * request that closed the account: its session has ended with it).
     */
    state: z.enum(['none', 'open', 'closed']),
    requested_at: isoTime.nullable(),
    /** When balances without an address may be converted to fiat by the operator. */
    conversion_due_at: isoTime.nullable(),
    /** True while nothing has left the account for the closure. */
    cancelable: z.boolean(),
    /** Open orders block a request. */
    open_orders: z.number(),
    balances: z.array(closureBalanceResponse),
  })
  .meta({ id: 'AccountClosure' });
export type ClosureEntity = z.infer<typeof closureResponse>;

/** The operator console's closure queue: one closure, its dates and what the account still holds. */
export const adminClosureResponse = z.object({
  id: z.number(),
  uid: z.string(),
  email: z.string(),
  state: z.enum(['open', 'canceled', 'closed']),
  requested_at: isoTime,
  conversion_due_at: isoTime,
  closed_at: isoTime.nullable(),
  records_erase_at: isoTime.nullable(),
  correspondence_erase_at: isoTime.nullable(),
  /** Open, past 30 days, and some balance has no withdrawal under way: for conversion to fiat. */
  for_conversion: z.boolean(),
  balances: z.array(z.object({ currency: z.string(), balance: z.string(), locked: z.string() })),
});
export type AdminClosureEntity = z.infer<typeof adminClosureResponse>;

/** `GET /api/v2/admin/closures?state=`: open (default), for_conversion, closed, or all. */
export const adminClosuresQuery = z.object({
  state: z.enum(['open', 'for_conversion', 'closed', 'all']).default('open'),
});
