import { z } from 'zod';
import { currencyId, WALLET_ERRORS } from './wallet.ts';

// The account history lists' filters: deposits, withdrawals, adjustments, swaps, and Peatio's transactions.

/** Deposit states a status filter expands to (docs/wallet.md#states). */
export const DEPOSIT_STATE_FILTERS: Record<string, readonly string[]> = {
  collected: [
    'collected',
    'collecting',
    'accepted',
    'skipped',
    'fee_processing',
    'fee_collecting',
    'fee_collected',
    'processing',
    'errored',
  ],
  submitted: ['submitted'],
  canceled: ['canceled'],
  rejected: ['rejected'],
};
/** Withdrawal states a status filter expands to (docs/wallet.md#states). */
export const WITHDRAW_STATE_FILTERS: Record<string, readonly string[]> = {
  canceled: ['canceled'],
  failed: ['failed', 'errored'],
  confirming: ['confirming'],
  succeed: ['succeed'],
  // `under_review` (waiting for staff, beyond the spec's list) is still on its way for the user.
  processing: ['skipped', 'processing', 'under_review'],
  rejected: ['rejected'],
  accepted: ['accepted'],
};
/** Adjustment state filters (docs/wallet.md#states). */
export const ADJUSTMENT_STATE_FILTERS: Record<string, readonly string[]> = {
  accepted: ['accepted'],
  rejected: ['rejected'],
  pending: ['pending'],
};

const epochSeconds = z.coerce.number({ error: WALLET_ERRORS.invalidDateRange }).int().nonnegative();

/** Query of the deposit, withdrawal, adjustment and swap lists: limit, page, state, currency, time range (epoch seconds). */
export const walletHistoryQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(1000).default(10),
    page: z.coerce.number().int().min(1).default(1),
    state: z
      .string()
      .regex(/^[a-z_]{1,32}$/)
      .optional(),
    currency: currencyId.optional(),
    time_from: epochSeconds.optional(),
    time_to: epochSeconds.optional(),
  })
  .refine((q) => q.time_from === undefined || q.time_to === undefined || q.time_from <= q.time_to, {
    message: WALLET_ERRORS.invalidDateRange,
  });
export type WalletHistoryQuery = z.infer<typeof walletHistoryQuery>;

/** `GET /account/transactions`: deposits and withdrawals together, with Peatio's filters and paging. */
export const transactionsQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(1000).default(100),
    page: z.coerce.number().int().min(1).default(1),
    order_by: z.enum(['asc', 'desc']).default('desc'),
    currency: currencyId.optional(),
    time_from: epochSeconds.optional(),
    time_to: epochSeconds.optional(),
    deposit_state: z
      .string()
      .regex(/^[a-z_]{1,32}$/)
      .optional(),
    withdraw_state: z
      .string()
      .regex(/^[a-z_]{1,32}$/)
      .optional(),
    txid: z.string().min(1).max(128).optional(),
  })
  .refine((q) => q.time_from === undefined || q.time_to === undefined || q.time_from <= q.time_to, {
    message: WALLET_ERRORS.invalidDateRange,
  });
export type TransactionsQuery = z.infer<typeof transactionsQuery>;
