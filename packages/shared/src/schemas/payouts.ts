import { z } from 'zod';
import { textField } from '../validation.ts';

/**
 * Mass payouts of a verified business (issue 31, part 3): a CSV file of up to {@link PAYOUT_LIMITS.maxRows} rows
 * (`currency,network,recipient,amount,reference`), validated as a whole, then executed after one authenticator
 * code, each row as a withdrawal (an outside address) or an internal transfer (a platform email or one of our
 * deposit addresses). Routes: `/api/v2/peatio/account/payouts`.
 */
export const PAYOUT_LIMITS = {
  /** Rows of payments in one file (the header line not counted). */
  maxRows: 1000,
  /** Bytes of one file: 1,000 rows of the longest fields still fit. */
  maxBytes: 512 * 1024,
  /** Characters of a row's reference (shown in the file's progress, never sent to a chain). */
  referenceLength: 140,
  /** Characters of a recipient: an email's 254. */
  recipientLength: 254,
} as const;

/** The columns of a payout file, in order; the first line of the file names them. */
export const PAYOUT_COLUMNS = ['currency', 'network', 'recipient', 'amount', 'reference'] as const;

/** Error codes of a whole payout file or request (`{"errors":[...]}`). */
export const PAYOUT_ERRORS = {
  /** The account is not a verified business (business, level 3, active) (403). */
  businessRequired: 'account.payout.business_required',
  /** No file in the upload (422). */
  fileRequired: 'account.payout.missing_file',
  /** The file is larger than {@link PAYOUT_LIMITS.maxBytes} (422; a body far larger is refused with 413). */
  fileTooLarge: 'account.payout.file_too_large',
  /** The file is not UTF-8 text, or its quoting is broken (422). */
  fileUnreadable: 'account.payout.unreadable_file',
  /** The first line is not the header `currency,network,recipient,amount,reference` (422). */
  headerInvalid: 'account.payout.invalid_header',
  /** The file has no payment row (422). */
  fileEmpty: 'account.payout.empty_file',
  /** The file has more than {@link PAYOUT_LIMITS.maxRows} payment rows (422). */
  tooManyRows: 'account.payout.too_many_rows',
  /** One or more rows are invalid: `rows` lists each with its codes (422). */
  rowsInvalid: 'account.payout.invalid_rows',
  /** The file's total (amounts and fees) of a currency passes the available balance: `shortfall` lists them (422). */
  insufficientBalance: 'account.payout.insufficient_balance',
  /**
   * A file with the same bytes (SHA-256) was already uploaded by this account and is waiting, running or done
   * (409, with `file_id`): nothing is paid twice. Discarding a file that was never executed frees its hash.
   */
  duplicateFile: 'account.payout.duplicate_file',
  /** The file was already executed (or is being executed), so it cannot be executed or discarded again (422). */
  alreadyExecuted: 'account.payout.already_executed',
  /** Authenticator code missing (422). */
  otpRequired: 'account.payout.missing_otp',
  /** Authenticator code wrong or already used (422). */
  otpInvalid: 'account.payout.invalid_otp',
} as const;

/** Error codes of one row of a payout file (`rows[].errors`). */
export const PAYOUT_ROW_ERRORS = {
  /** The row has not exactly five columns. */
  columns: 'account.payout.row.invalid_columns',
  /** Unknown currency. */
  currency: 'account.payout.row.invalid_currency',
  /** The currency has no such network. */
  network: 'account.payout.row.invalid_network',
  /** Withdrawals of the currency are switched off on the network. */
  withdrawDisabled: 'account.payout.row.withdraw_disabled',
  /** No recipient. */
  recipientRequired: 'account.payout.row.missing_recipient',
  /** Not a valid address of the network (format and checksum). */
  addressInvalid: 'account.payout.row.invalid_address',
  /** No active account has that email. */
  recipientNotFound: 'account.payout.row.recipient_not_found',
  /** The recipient is the payer (its email or its own deposit address). */
  selfPayout: 'account.payout.row.self_payout',
  /** The amount is not a positive decimal with at most the currency's decimals. */
  amountInvalid: 'account.payout.row.invalid_amount',
  /** The amount is below the network's minimum withdrawal. */
  amountTooSmall: 'account.payout.row.amount_too_small',
  /** The amount (with its fee) passes the per-withdrawal limit of the account's level. */
  overWithdrawalLimit: 'account.payout.row.over_withdrawal_limit',
  /** With the rows above it and the last 24 hours' withdrawals, the daily limit of the currency is passed. */
  overDailyLimit: 'account.payout.row.over_daily_limit',
  /** The reference is longer than {@link PAYOUT_LIMITS.referenceLength} characters. */
  referenceTooLong: 'account.payout.row.reference_too_long',
} as const;

/** `POST /account/payouts/{id}/execute`: the one authenticator code that runs the whole file. */
export const executePayoutSchema = z.object({
  otp: textField(PAYOUT_ERRORS.otpRequired, [
    [(v) => v.trim().length > 0, PAYOUT_ERRORS.otpRequired],
    [(v) => /^\d{6}$/.test(v.trim()), PAYOUT_ERRORS.otpInvalid],
  ]).transform((v) => v.trim()),
});
export type ExecutePayoutInput = z.infer<typeof executePayoutSchema>;

/** A file id in a path. */
export const payoutIdParams = z.object({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

/**
 * A row's state. Before execution `pending`; while it is placed `placing`; then the state of its withdrawal
 * (`accepted`, `under_review`, `processing`, `confirming`, `succeed`, `failed`, `rejected`, `errored`, ...), or
 * `refused` when the withdrawal could not be placed (its code in `error`), or `interrupted` when the process
 * stopped while placing it (an operator checks whether its withdrawal exists; it is never placed again).
 */
export const payoutRowResponse = z.object({
  /** The row's line in the file: the header is line 1, the first payment line 2 (a spreadsheet's row number). */
  row: z.number(),
  currency: z.string(),
  blockchain_key: z.string(),
  recipient: z.string(),
  /** `address` (a withdrawal to a chain) or `internal` (a platform email or deposit address: no fee). */
  kind: z.enum(['address', 'internal']),
  /** What the recipient receives. */
  amount: z.string(),
  /** The network's withdrawal fee, on top of the amount (0 for an internal one). */
  fee: z.string(),
  reference: z.string(),
  state: z.string(),
  error: z.string().nullable(),
  withdrawal_id: z.number().nullable(),
  txid: z.string().nullable(),
});
export type PayoutRow = z.infer<typeof payoutRowResponse>;

/** A payout file: `validated` (waiting for its code), `executing`, `executed` (every row placed or refused). */
export const payoutFileResponse = z.object({
  id: z.number(),
  file_name: z.string(),
  /** SHA-256 of the file's bytes, hex. */
  sha256: z.string(),
  state: z.enum(['validated', 'executing', 'executed']),
  row_count: z.number(),
  /** Per currency: the amounts and the fees of the file together. */
  totals: z.array(z.object({ currency: z.string(), amount: z.string(), fees: z.string() })),
  /** Rows per state (see {@link payoutRowResponse}). */
  progress: z.record(z.string(), z.number()),
  created_at: z.string(),
  executed_at: z.string().nullable(),
});
export type PayoutFile = z.infer<typeof payoutFileResponse>;

/** One file with its rows. */
export const payoutFileDetailResponse = payoutFileResponse.extend({ rows: z.array(payoutRowResponse) });
export type PayoutFileDetail = z.infer<typeof payoutFileDetailResponse>;

/** The body of a 422 `account.payout.invalid_rows` / `insufficient_balance`: what is wrong, row by row. */
export const payoutRejectionResponse = z.object({
  errors: z.array(z.string()),
  rows: z.array(z.object({ row: z.number(), errors: z.array(z.string()) })),
  shortfall: z.array(z.object({ currency: z.string(), needed: z.string(), available: z.string() })),
});
export type PayoutRejection = z.infer<typeof payoutRejectionResponse>;
