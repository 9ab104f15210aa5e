import { z } from 'zod';
import { STATEMENT_CAUSES } from '../schemas/admin-statement.ts';
import { WITHDRAW_REVIEW_REASONS } from '../schemas/admin-withdrawals.ts';
import { decimal, isoDate, isoTime } from './common.ts';
import { labelResponse, phoneResponse, profileEntityResponse } from './identity.ts';

/**
 * The operator console's answers (`/api/v2/admin`): what staff see of users, reviews, adjustments, withdrawals,
 * markets, the ledger and statements (custody and solvency: solvency.ts).
 */

// Shared building blocks: the console shows the same facts in several answers, written once here.

/** Who a user is, in every list and detail of the console. */
const userSummary = {
  uid: z.string(),
  email: z.string(),
  role: z.string(),
  level: z.number().int(),
  state: z.string(),
  otp: z.boolean(),
};

/** An available and a held (locked) amount. */
const availableAndHeld = { balance: decimal, locked: decimal };

/** A deposit or a withdrawal among a user's latest. */
const transferRow = z.object({
  id: z.number().int(),
  currency: z.string(),
  amount: decimal,
  state: z.string(),
  created_at: isoTime,
});

/** Whose identity a review is about: the person's, or a business account's company (KYB). */
const reviewKind = z.enum(['individual', 'company']);

/** A document held for a review (an identity's or a card holder's): its id, type and format. */
const heldDocument = z.object({ id: z.number().int(), type: z.string(), mime_type: z.string() });

/** `GET /admin/me`: the signed-in staff member. */
export const staffMeResponse = z.object({
  uid: z.string(),
  email: z.string(),
  role: z.string(),
  permissions: z.array(z.string()),
  step_up_until: isoTime.nullable(),
});

/** `POST /admin/step_up`: until when the session may make changes. */
export const stepUpResponse = z.object({ step_up_until: isoTime.nullable() });

/** A user of the console's search. */
export const adminUserRowResponse = z
  .object({ ...userSummary, created_at: isoTime })
  .meta({ id: 'AdminUserRow' });

/** `GET /admin/users/{uid}`: everything support sees of one user. */
export const adminUserDetailResponse = z.object({
  ...userSummary,
  // The user's own answers' shapes (identity.ts), written in place here rather than as their named components.
  labels: z.array(labelResponse.pick({ key: true, value: true, scope: true })),
  phones: z.array(z.object(phoneResponse.shape)),
  profile: z.object(profileEntityResponse.shape).nullable(),
  sessions: z.array(
    z.object({
      id: z.string(),
      ip: z.string().nullable(),
      user_agent: z.string().nullable(),
      created_at: isoTime,
      last_seen_at: isoTime,
    }),
  ),
  api_keys: z.array(z.object({ kid: z.string(), state: z.string(), created_at: isoTime })),
  balances: z.array(z.object({ currency: z.string(), ...availableAndHeld })),
  activity: z.array(
    z.object({ action: z.string(), result: z.string(), ip: z.string().nullable(), created_at: isoTime }),
  ),
  orders: z.array(
    z.object({
      id: z.number().int(),
      market: z.string(),
      side: z.string(),
      ord_type: z.string(),
      state: z.string(),
      price: decimal.nullable(),
      volume: decimal,
      created_at: isoTime,
    }),
  ),
  deposits: z.array(transferRow),
  withdrawals: z.array(transferRow),
});

/** Lock or unlock. */
export const userStateResponse = z.object({ uid: z.string(), state: z.string() });
/** Ending a user's sessions: how many ended. */
export const sessionsEndedResponse = z.object({ uid: z.string(), ended: z.number().int() });
/** A two-factor reset. */
export const twoFactorResetResponse = z.object({ uid: z.string(), otp: z.literal(false) });

/** An applicant waiting for an identity review, with the documents the provider holds. */
export const kycQueueItemResponse = z.object({
  uid: z.string(),
  email: z.string(),
  level: z.number().int(),
  /** Personal or business: a business account's identity and its company are two cases. */
  account_type: z.enum(['personal', 'business']),
  /** `individual`: the person's identity; `company`: a business account's company (KYB). */
  kind: reviewKind,
  applicant_id: z.string(),
  review_status: z.string(),
  submitted_at: isoTime,
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  dob: isoDate.nullable(),
  country: z.string().nullable(),
  documents: z.array(heldDocument.extend({ side: z.string().nullable() })),
  /** A company case: the company, its people and the issue date of its newest register extract. */
  company: z
    .object({
      name: z.string(),
      registration_number: z.string(),
      country: z.string(),
      address: z.string(),
      register_extract_issued_on: isoDate.nullable(),
      representatives: z.array(
        z.object({ name: z.string(), role: z.string(), ownership: z.string().nullable() }),
      ),
    })
    .nullable(),
});

/** A decided identity review. */
export const kycDecisionResponse = z.object({
  uid: z.string(),
  kind: reviewKind,
  review_status: z.string(),
  review_answer: z.string().nullable(),
});

/** A card holder waiting for the issuer's review. */
export const cardHolderQueueItemResponse = z.object({
  uid: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  country: z.string(),
  id_type: z.string(),
  status: z.string(),
  submitted_at: isoTime.nullable(),
  documents: z.array(heldDocument),
});

/** A decided card holder review. */
export const cardHolderDecisionResponse = z.object({ uid: z.string(), kyc_status: z.string() });

/** A staff adjustment (four eyes). */
export const adjustmentResponse = z
  .object({
    id: z.number().int(),
    uid: z.string(),
    email: z.string(),
    currency: z.string(),
    amount: decimal,
    reason: z.string(),
    state: z.string(),
    proposed_by: z.string().nullable(),
    decided_by: z.string().nullable(),
    created_at: isoTime,
  })
  .meta({ id: 'Adjustment' });

/** One component's health as the console's home shows it. */
export const componentHealthResponse = z.object({
  component: z.string(),
  /** `ok`; `degraded` when it works but needs an operator's eye; `down` when it does not answer. */
  status: z.enum(['ok', 'degraded', 'down']),
  detail: z.string(),
});
export type ComponentHealth = z.infer<typeof componentHealthResponse>;

/** A line of the staff trail. */
export const staffActionResponse = z
  .object({
    id: z.number().int(),
    /** The staff member's email. */
    staff: z.string(),
    role: z.string(),
    action: z.string(),
    target: z.string().nullable(),
    before: z.unknown(),
    after: z.unknown(),
    ip: z.string().nullable(),
    created_at: isoTime,
  })
  .meta({ id: 'StaffAction' });
export type StaffActionEntity = z.infer<typeof staffActionResponse>;

/** A withdrawal as the console's review queue shows it. */
export const adminWithdrawalResponse = z
  .object({
    id: z.number().int(),
    uid: z.string(),
    email: z.string(),
    level: z.number().int(),
    currency: z.string(),
    blockchain_key: z.string(),
    amount: decimal,
    fee: decimal,
    rid: z.string(),
    state: z.string(),
    internal: z.boolean(),
    /**
     * The recipient's uid for a transfer inside the exchange, else null. Staff decide no withdrawal from or to
     * their own account: the console compares both uids with its own.
     */
    recipient_uid: z.string().nullable(),
    review_reasons: z.array(z.enum(Object.values(WITHDRAW_REVIEW_REASONS) as [string, ...string[]])),
    /** What went wrong (errored), or null. */
    error: z.string().nullable(),
    /** What the user is told (the rejection's reason), or null. */
    note: z.string().nullable(),
    beneficiary: z.string().nullable(),
    beneficiary_activated_at: isoTime.nullable(),
    reviewed_by: z.string().nullable(),
    created_at: isoTime,
  })
  .meta({ id: 'AdminWithdrawal' });
export type AdminWithdrawalEntity = Omit<z.infer<typeof adminWithdrawalResponse>, 'review_reasons'> & {
  review_reasons: (typeof WITHDRAW_REVIEW_REASONS)[keyof typeof WITHDRAW_REVIEW_REASONS][];
};

/** A limit of a user level and currency (amounts in the currency; null: none). */
export const withdrawLimitEntityResponse = z
  .object({
    level: z.number().int(),
    currency: z.string(),
    per_withdrawal: decimal.nullable(),
    per_day: decimal.nullable(),
    updated_at: isoTime,
  })
  .meta({ id: 'AdminWithdrawLimit' });
export type WithdrawLimitEntity = z.infer<typeof withdrawLimitEntityResponse>;

/** A market as the console shows it. */
export const adminMarketResponse = z
  .object({
    id: z.string(),
    base_unit: z.string(),
    quote_unit: z.string(),
    amount_precision: z.number().int(),
    price_precision: z.number().int(),
    min_price: decimal,
    /** `0`: no upper bound. */
    max_price: decimal,
    min_amount: decimal,
    state: z.string(),
    /** The market's own fee rule (any level), else the exchange's default. */
    maker_fee: decimal,
    taker_fee: decimal,
  })
  .meta({ id: 'AdminMarket' });
export type AdminMarketEntity = z.infer<typeof adminMarketResponse>;

/** A network of a currency as the console shows it. */
export const adminNetworkResponse = z
  .object({
    currency: z.string(),
    blockchain_key: z.string(),
    precision: z.number().int(),
    deposit_enabled: z.boolean(),
    withdraw_enabled: z.boolean(),
    withdraw_fee: decimal,
    deposit_fee: decimal,
    min_withdraw_amount: decimal,
    min_deposit_amount: decimal,
  })
  .meta({ id: 'AdminNetwork' });
export type AdminNetworkEntity = z.infer<typeof adminNetworkResponse>;

/** The ledger's totals of one currency. */
export const ledgerTotalsResponse = z.object({
  currency: z.string(),
  /** Users' available balances. */
  balance: decimal,
  /** Users' amounts held for orders and withdrawals. */
  locked: decimal,
  fees: decimal,
  external: decimal,
  card: decimal,
  swap: decimal,
  sum: decimal,
});
export type LedgerTotalsEntity = z.infer<typeof ledgerTotalsResponse>;

/** A rule of the ledger audit that failed. */
export const ledgerAuditFailureResponse = z.object({
  rule: z.string(),
  currency: z.string(),
  account: z.string().optional(),
  detail: z.string(),
});
export type LedgerAuditFailure = z.infer<typeof ledgerAuditFailureResponse>;

/** `GET /admin/ledger`. */
export const ledgerViewResponse = z.object({
  totals: z.array(ledgerTotalsResponse),
  audit: z.object({ clean: z.boolean(), failures: z.array(ledgerAuditFailureResponse) }),
  /** When it was read (ISO 8601 UTC). */
  at: isoTime,
});
export type LedgerViewEntity = z.infer<typeof ledgerViewResponse>;

/** One movement of a statement: decimals as strings, signed changes, and the balances after it. */
export const statementRowResponse = z.object({
  /** The sequence number of the core command that made it. */
  command: z.number().int(),
  /** When (ISO 8601 UTC): the command's time. */
  at: isoTime,
  cause: z.enum(STATEMENT_CAUSES),
  /** `order:<id>`, `trade:<id>`, or the command's own reference (`deposit:<id>`, `withdraw-settle:<id>` ...). */
  ref: z.string().nullable(),
  /** Change of the available balance. */
  balance_change: decimal,
  /** Change of the held (locked) balance. */
  locked_change: decimal,
  /** Available and held balances after this movement. */
  ...availableAndHeld,
});
export type StatementRowEntity = z.infer<typeof statementRowResponse>;

/** `GET /admin/users/{uid}/statement`: a customer's movements in one currency. */
export const statementResponse = z.object({
  uid: z.string(),
  currency: z.string(),
  /** What the ledger held before its postings named their commands (databases older than the journal). */
  opening: z.object(availableAndHeld),
  rows: z.array(statementRowResponse),
  total: z.number().int(),
});
export type StatementEntity = z.infer<typeof statementResponse>;
