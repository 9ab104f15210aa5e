import { z } from 'zod';
import { staffReason } from './admin.ts';

/**
 * EUR deposits by SEPA bank transfer (issue 31, part 3): the collection account, the customer's reference and
 * the operator queue of transfers that could not be matched.
 */

/** Error codes of the bank deposit routes. */
export const BANK_DEPOSIT_ERRORS = {
  /** Bank deposits are for verified business accounts (business, level 3, active) (403). */
  businessOnly: 'account.bank_deposit.business_only',
  /** The bank's notification is not signed with the webhook secret, or its timestamp is stale (401). */
  webhookUnauthorized: 'account.bank_deposit.webhook_unauthorized',
  /** The bank's notification is not a credit notification (400). */
  webhookInvalid: 'account.bank_deposit.webhook_invalid',
  /** No such transfer waiting for an operator: unknown, or already assigned or returned (422). */
  notQueued: 'admin.bank_transfer.not_queued',
  /** The account to credit is unknown (422). */
  userUnknown: 'admin.bank_transfer.user_unknown',
} as const;

/** `GET /account/bank_deposit`: where and how a verified business sends EUR. */
export const bankDepositResponse = z
  .object({
    currency: z.literal('eur'),
    method: z.literal('sepa'),
    beneficiary: z.string(),
    iban: z.string(),
    bic: z.string(),
    /** The customer's ISO 11649 creditor reference, compact (`RF…`). */
    reference: z.string(),
  })
  .meta({
    id: 'BankDeposit',
    examples: [
      {
        currency: 'eur',
        method: 'sepa',
        beneficiary: 'Exchange Collection Account',
        iban: 'DE89370400440532013000',
        bic: 'COBADEFFXXX',
        reference: 'RF18EXAB12CD34EF',
      },
    ],
  });
export type BankDeposit = z.infer<typeof bankDepositResponse>;

/** Why a transfer waits for an operator. */
export const BANK_QUEUE_REASONS = [
  'missing_reference',
  'unknown_reference',
  'not_verified',
  'wrong_currency',
] as const;

/** `GET /admin/bank_transfers`: the operator queue (default), or all transfers. */
export const adminBankTransfersQuery = z.object({
  state: z.enum(['queued', 'credited', 'returned', 'all']).default('queued'),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});

/** One incoming transfer in the console. */
export const adminBankTransferResponse = z
  .object({
    id: z.number().int(),
    bank_transaction_id: z.string(),
    amount: z.string(),
    currency: z.string(),
    debtor_name: z.string(),
    debtor_iban: z.string(),
    remittance_information: z.string().nullable(),
    creditor_reference: z.string().nullable(),
    end_to_end_id: z.string(),
    booking_date: z.string(),
    state: z.enum(['received', 'crediting', 'credited', 'queued', 'returned']),
    queue_reason: z.enum(BANK_QUEUE_REASONS).nullable(),
    /** The credited account's uid. */
    uid: z.string().nullable(),
    decided_by: z.string().nullable(),
    decision_note: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'AdminBankTransfer' });
export type AdminBankTransfer = z.infer<typeof adminBankTransferResponse>;

/** `POST /admin/bank_transfers/:id/assign`: credit a queued transfer to this account (its uid). */
export const assignBankTransferSchema = z.object({
  uid: z
    .string()
    .trim()
    .regex(/^ID[0-9A-F]{10}$/, BANK_DEPOSIT_ERRORS.userUnknown),
  reason: staffReason,
});

/** `POST /admin/bank_transfers/:id/return`: the transfer goes back to the sender; why. */
export const returnBankTransferSchema = z.object({ reason: staffReason });
