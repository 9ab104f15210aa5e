import { z } from 'zod';
import { staffReason } from './admin.ts';

/**
 * Why a withdrawal waits for staff review instead of broadcasting (`review_reasons` of a queued withdrawal).
 * - `limit.per_withdrawal`: above the limit of one withdrawal for the user's level and currency.
 * - `limit.per_day`: takes the user's withdrawals of the currency in the last 24 hours above the daily limit.
 * - `beneficiary.new`: to a saved address activated less than `WITHDRAW_REVIEW_NEW_BENEFICIARY_HOURS` ago.
 * - `rule.pass_through`: the user's withdrawals of the currency in the last `WITHDRAW_REVIEW_PASS_THROUGH_MINUTES`
 *   minutes, this one included, take at least half of what was deposited in that time (money passing straight
 *   through the account, in one withdrawal or several).
 * - `account.staff`: the sender is a staff member. Staff set the limits and rules that decide which withdrawals
 *   wait, so every withdrawal of theirs waits for a colleague (who may not be themselves: `admin.user.own_account`).
 * - `aml.suspended`: compliance suspended it for a report to the financial intelligence unit (up to 10 business
 *   days); it cannot be approved until the suspension ends.
 */
export const WITHDRAW_REVIEW_REASONS = {
  perWithdrawal: 'limit.per_withdrawal',
  perDay: 'limit.per_day',
  newBeneficiary: 'beneficiary.new',
  passThrough: 'rule.pass_through',
  staffAccount: 'account.staff',
  amlSuspended: 'aml.suspended',
  /** Travel rule: the saved address declares no beneficiary (TRAVEL_RULE_HOLD_UNDECLARED). */
  travelRuleUndeclared: 'travel_rule.undeclared',
  /** Travel rule: the beneficiary's provider refused the originator/beneficiary information. */
  travelRuleRefused: 'travel_rule.refused',
  /** Travel rule: the beneficiary's provider did not answer in time. */
  travelRuleUnreachable: 'travel_rule.unreachable',
} as const;
export type WithdrawReviewReason = (typeof WITHDRAW_REVIEW_REASONS)[keyof typeof WITHDRAW_REVIEW_REASONS];

/** Error codes of the console's withdrawal routes. */
export const ADMIN_WITHDRAW_ERRORS = {
  /** No such withdrawal waiting for review: unknown, or already approved or rejected (422). */
  notUnderReview: 'admin.withdrawal.not_under_review',
  /** No such errored withdrawal: unknown, or already resolved (422). */
  notErrored: 'admin.withdrawal.not_errored',
  /** A withdrawal resolved as sent needs the chain's transaction id (422). */
  invalidTxid: 'admin.withdrawal.invalid_txid',
  /** Unknown currency for a limit (422). */
  limitInvalidCurrency: 'admin.withdraw_limit.invalid_currency',
  /** A limit is a positive decimal with at most the currency's precision, or null for none (422). */
  limitInvalidAmount: 'admin.withdraw_limit.invalid_amount',
  /** A user level is a whole number from 0 to 3 (422). */
  limitInvalidLevel: 'admin.withdraw_limit.invalid_level',
} as const;

/** `GET /withdrawals`: the review queue (default), the errored ones, or all of them. */
export const adminWithdrawalsQuery = z.object({
  state: z.enum(['under_review', 'errored', 'all']).default('under_review'),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});

/** `POST /withdrawals/:id/approve`: a note for the trail is optional. */
export const approveWithdrawalSchema = z.object({ reason: staffReason.optional() });

/** `POST /withdrawals/:id/reject`: the reason is shown to the user with the rejected withdrawal. */
export const rejectWithdrawalSchema = z.object({ reason: staffReason });

/**
 * `POST /withdrawals/:id/resolve`, for an errored withdrawal after checking the chain: `sent` with the transaction
 * found there (followed to confirmation), or `failed` when it never left (the funds go back to the user).
 */
export const resolveWithdrawalSchema = z.discriminatedUnion(
  'decision',
  [
    z.object({
      decision: z.literal('sent'),
      txid: z
        .string({ error: ADMIN_WITHDRAW_ERRORS.invalidTxid })
        .trim()
        .regex(/^[0-9A-Za-z:_-]{8,128}$/, ADMIN_WITHDRAW_ERRORS.invalidTxid),
    }),
    z.object({ decision: z.literal('failed') }),
  ],
  { error: ADMIN_WITHDRAW_ERRORS.notErrored },
);
export type ResolveWithdrawalInput = z.infer<typeof resolveWithdrawalSchema>;

const limitAmount = z
  .string({ error: ADMIN_WITHDRAW_ERRORS.limitInvalidAmount })
  .regex(/^(0|[1-9]\d{0,17})(\.\d{1,18})?$/, ADMIN_WITHDRAW_ERRORS.limitInvalidAmount)
  .nullable();

/** `PUT /withdraw_limits`: sets the limits of a level and currency; both null removes them. */
export const withdrawLimitSchema = z.object({
  level: z.coerce
    .number({ error: ADMIN_WITHDRAW_ERRORS.limitInvalidLevel })
    .int(ADMIN_WITHDRAW_ERRORS.limitInvalidLevel)
    .min(0, ADMIN_WITHDRAW_ERRORS.limitInvalidLevel)
    .max(3, ADMIN_WITHDRAW_ERRORS.limitInvalidLevel),
  currency: z.string().regex(/^[a-z0-9]{2,10}$/, ADMIN_WITHDRAW_ERRORS.limitInvalidCurrency),
  per_withdrawal: limitAmount,
  per_day: limitAmount,
});
export type WithdrawLimitInput = z.infer<typeof withdrawLimitSchema>;
