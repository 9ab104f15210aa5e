import { z } from 'zod';

/**
 * The operator console's wire contract (`/api/v2/admin`): staff roles and what each may do, error codes and
 * request schemas. Staff are users with one of these roles (`users.role`; customers are `member`).
 */
export const STAFF_ROLES = ['superadmin', 'compliance', 'support', 'accountant', 'technical'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/**
 * What each permission allows, and the roles that hold it. `superadmin` holds all of them.
 * - `users.read`: search users and see a user's profile, labels, phones, sessions, API keys, balances and log.
 * - `users.manage`: lock or unlock an account, end its sessions, reset its two-factor after an identity check.
 * - `kyc.review`: the identity review queues (exchange KYC and card holders) with documents; approve, reject or
 *   ask to retry.
 * - `adjustments.propose`: propose a balance credit or debit with a reason.
 * - `adjustments.approve`: approve or reject another staff member's proposal (never one's own).
 * - `withdrawals.review`: the withdrawals waiting for review (approve or reject) and the errored ones (resolve).
 * - `withdrawals.limits`: the withdrawal limits per user level and currency.
 * - `trail.read`: the staff actions log.
 * - `metrics.read`: the Prometheus metrics (`GET /metrics`) and the console's dashboard.
 * - `markets.manage`: list markets and currency networks; add a market (through the core); enable or disable
 *   trading, deposits and withdrawals; change fees and minimums (see `admin-markets.ts`).
 * - `ledger.read`: totals per currency and system account, the ledger audit and its CSV export.
 * - `statements.read`: a customer's statement of account per currency (every movement with its cause and the
 *   balances after it), and its CSV export.
 * - `sanctions.review`: the sanctions screening hits and the current list; decide a hit (false positive or
 *   confirmed) with a reason.
 * - `travel_rule.review`: the crypto deposits held for want of the originator's information (travel rule);
 *   release (credit) or return one with a reason.
 *
 * No permission reaches the staff member's own customer account: whatever acts on one account (an adjustment, a
 * withdrawal decision, a KYC or card-holder review, lock, unlock, 2FA reset, sessions) is refused on one's own
 * with 403 `admin.user.own_account`.
 */
export const STAFF_PERMISSIONS = {
  'users.read': ['support', 'compliance', 'accountant'],
  'users.manage': ['support'],
  'kyc.review': ['compliance'],
  'adjustments.propose': ['accountant'],
  'adjustments.approve': ['accountant'],
  'withdrawals.review': ['compliance', 'accountant'],
  'withdrawals.limits': ['compliance', 'accountant'],
  /** The bank transfers no reference matched: assign to an account (credit) or mark for return. */
  'bank_transfers.review': ['compliance', 'accountant'],
  'trail.read': ['support', 'compliance', 'accountant', 'technical'],
  'metrics.read': ['technical'],
  'markets.manage': ['technical'],
  'ledger.read': ['accountant'],
  'statements.read': ['accountant', 'compliance'],
  /** Sanctions screening hits: see them and decide them (false positive or confirmed). */
  'sanctions.review': ['compliance'],
  /** Transaction-monitoring alerts, reports to the FIU, suspensions and risk classes (issue 33). */
  'monitoring.review': ['compliance'],
  /** Deposits held under the travel rule (no originator information from the sending provider). */
  'travel_rule.review': ['compliance'],
} as const satisfies Record<string, readonly StaffRole[]>;
export type StaffPermission = keyof typeof STAFF_PERMISSIONS;

/** True when `role` holds `permission`. */
export function staffMay(role: string, permission: StaffPermission): boolean {
  return role === 'superadmin' || (STAFF_PERMISSIONS[permission] as readonly string[]).includes(role);
}

/** How long a step-up (a fresh authenticator code) lets staff act. */
export const STEP_UP_MINUTES = 5;

/** Error codes of the admin API. */
export const ADMIN_ERRORS = {
  /** Not staff, or a role without this permission (403). */
  forbidden: 'admin.forbidden',
  /** Staff must have two-factor authentication on (403). */
  twoFactorRequired: 'admin.2fa_required',
  /** No authenticator code in the last 5 minutes: step up first (403). */
  stepUpRequired: 'admin.step_up_required',
  /** The step-up code is wrong (422). */
  invalidCode: 'admin.step_up.invalid_code',
  /** The step-up code was already used; wait for the next one (422). */
  codeUsed: 'admin.step_up.code_used',
  /** No such user (404). */
  userNotFound: 'admin.user.not_found',
  /** Two-factor is already off for this user: nothing to reset (422). */
  twoFactorOff: 'admin.user.2fa_off',
  /**
   * Staff never act on their own customer account (403): no proposal or decision on an adjustment of it, no
   * review of a withdrawal from or to it, no decision on their own identity or card application, no lock, unlock,
   * two-factor reset or session end of it. The database refuses these too.
   */
  ownAccount: 'admin.user.own_account',
  /** The account was closed by its owner (issue 31, part 4): it can be neither locked nor unlocked (422). */
  accountClosed: 'admin.user.closed',
  /** No such adjustment, or it is no longer a proposal (422). */
  adjustmentNotProposed: 'admin.adjustment.not_proposed',
  /** The proposer cannot approve their own proposal: four eyes (422). */
  adjustmentOwnProposal: 'admin.adjustment.own_proposal',
  /** The amount is not a non-zero decimal with at most the currency's precision (422). */
  adjustmentInvalidAmount: 'admin.adjustment.invalid_amount',
  /** Unknown currency (422). */
  adjustmentInvalidCurrency: 'admin.adjustment.invalid_currency',
  /** A reason is required (422). */
  reasonRequired: 'admin.reason_required',
  /** The applicant cannot take this decision now (not submitted, already reviewed, rejected for good) (422). */
  kycNotReviewable: 'admin.kyc.not_reviewable',
  /** The card holder has no application waiting for review, or the card issuer is not the simulator (422). */
  cardHolderNotReviewable: 'admin.card_holder.not_reviewable',
  /** A statement of account in a currency the exchange does not have (422). */
  statementInvalidCurrency: 'admin.statement.invalid_currency',
} as const;

/** `POST /step_up`. */
export const stepUpSchema = z.object({
  otp_code: z.string().regex(/^\d{6}$/, ADMIN_ERRORS.invalidCode),
});

/** `GET /users`: search by email, phone or uid (a part of it). */
export const adminUserQuery = z.object({
  q: z.string().trim().max(100).default(''),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});

/** A reason, required for every decision that changes a customer's state or money. */
export const staffReason = z
  .string({ error: ADMIN_ERRORS.reasonRequired })
  .trim()
  .min(3, ADMIN_ERRORS.reasonRequired)
  .max(500);

/** `POST /users/:uid/lock` and `/unlock`. */
export const adminUserActionSchema = z.object({ reason: staffReason });

/** `POST /adjustments`: a signed decimal amount (negative debits). */
export const proposeAdjustmentSchema = z.object({
  uid: z.string().regex(/^ID[0-9A-F]{10}$/, ADMIN_ERRORS.userNotFound),
  currency: z.string().regex(/^[a-z0-9]{2,10}$/, ADMIN_ERRORS.adjustmentInvalidCurrency),
  amount: z.string().regex(/^-?(0|[1-9]\d{0,17})(\.\d{1,18})?$/, ADMIN_ERRORS.adjustmentInvalidAmount),
  reason: staffReason,
});

/** `POST /adjustments/:id/approve` and `/reject`. */
export const decideAdjustmentSchema = z.object({ reason: staffReason.optional() });

/** `POST /kyc/:uid/review`. */
export const kycReviewSchema = z.object({
  decision: z.enum(['approve', 'reject', 'retry'], { error: ADMIN_ERRORS.kycNotReviewable }),
  reason: staffReason,
  /** The person's identity (default) or a business account's company. */
  kind: z
    .enum(['individual', 'company'], { error: ADMIN_ERRORS.kycNotReviewable })
    .optional()
    .default('individual'),
});

/** `POST /card_holders/:uid/review`: the issuer's verdicts (approve; reject; incomplete asks for new documents). */
export const cardHolderReviewSchema = z.object({
  decision: z.enum(['approve', 'reject', 'incomplete'], { error: ADMIN_ERRORS.cardHolderNotReviewable }),
  reason: staffReason,
});

/** `GET /actions`: the staff trail, filtered. */
export const adminActionsQuery = z.object({
  staff: z.string().max(100).optional(),
  action: z.string().max(60).optional(),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
