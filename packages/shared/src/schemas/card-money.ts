import { z } from 'zod';
import { parseUnits } from '../money.ts';
import { cardReference } from './card.ts';

/**
 * The card suite's wire contract, money half (docs/cards.md#screens, #data, #validation, #api, #constants): top-ups, the USDT↔EUR
 * conversion, top-up history and the statement. Paths are under the Peatio prefix (`/api/v2/peatio`).
 */

/** Card money error codes; the web app maps each to the spec's message. */
export const CARD_MONEY_ERRORS = {
  /** Top-up amount missing ("Please enter an amount") (422). */
  topupAmountRequired: 'account.card.missing_topup_amount',
  /** Not a positive decimal with at most 6 decimals (422). */
  topupAmountInvalid: 'account.card.invalid_topup_amount',
  /** Under 1 USDT ("Minimum top up limit is 1 USDT") (422). */
  topupBelowMinimum: 'account.card.topup_below_minimum',
  /** More than the spot USDT balance ("Insufficient balance") (422); the engine's code. */
  insufficientBalance: 'account.card.insufficient_balance',
  /** Card balance + amount over the load limit ("Maximum card balance limit is {n} USDT."); `limit` beside it (422). */
  loadLimitExceeded: 'account.card.load_limit_exceeded',
  /** Today's top-ups + amount over the daily limit ("Your maximum Top up limit is {n} USDT per day."); `limit` beside it (422). */
  dailyLimitExceeded: 'account.card.daily_limit_exceeded',
  /** `currency` of a conversion is not `usdt` or `euro` (422). */
  conversionCurrencyInvalid: 'account.card.invalid_conversion_currency',
  /** The amount to convert is not a positive decimal (422). */
  conversionAmountInvalid: 'account.card.invalid_conversion_amount',
  /** No USDT/EUR price is known right now (422). */
  conversionUnavailable: 'account.card.conversion_unavailable',
  /** Statement: a date is not `YYYY-MM-DD` (422). */
  statementDateInvalid: 'account.card.invalid_statement_date',
  /** Statement: to before from ("To date must be greater than the From date ") (422). */
  statementRangeInvalid: 'account.card.invalid_statement_range',
  /** Statement: span over 30 days ("The difference between From and To date should not be more than 30 days") (422). */
  statementRangeTooLong: 'account.card.statement_range_too_long',
  /** Statement: a date in the future (422). */
  statementFutureDate: 'account.card.statement_future_date',
  /** Statement: `transaction_type` is not Settled/Unsettled or `currency` not USDT/EUR (422). */
  statementFilterInvalid: 'account.card.invalid_statement_filter',
} as const;

/** Smallest top-up, in USDT (docs/cards.md#validation). */
export const TOPUP_MINIMUM = '1';
/** Most decimals of a top-up amount (docs/cards.md#validation). */
export const TOPUP_DECIMALS = 6;
/** The quick buttons of the top-up form, in percent of the spot USDT balance (docs/cards.md#validation). */
export const TOPUP_QUICK_PERCENTS = [25, 50, 75, 100] as const;
/** The form asks for the EUR conversion this long after the last keystroke (docs/cards.md#validation, #constants). */
export const CONVERSION_DEBOUNCE_MS = 500;
/** The longest statement period, in days (docs/cards.md#validation). */
export const STATEMENT_MAX_DAYS = 30;
/** Statement rows per page (docs/cards.md#constants). */
export const STATEMENT_PAGE_SIZE = 10;

/** The card transaction type codes (docs/cards.md#data) and their labels. */
export const CARD_TRANSACTION_TYPES: Record<number, string> = {
  1: 'Success',
  2: 'Reversal',
  3: 'Reversed',
  6: 'Cancelled',
  7: 'Cancel',
  10: 'Refund',
  11: 'Processing',
  150: 'Pre-authorization',
  151: 'Payment',
  100: 'Top-up',
  110: 'Withdrawal',
  120: 'Transfer-In',
  121: 'Transfer-Out',
  200: 'Settlement adjustment',
  500: 'Fee',
};

/** `POST /account/card_topup`: USDT from the spot wallet onto a card; at least 1, at most 6 decimals. */
export const cardTopupSchema = z.object({
  card_number: cardReference,
  usdt_amount: z
    .string({ error: CARD_MONEY_ERRORS.topupAmountRequired })
    .trim()
    .min(1, { error: CARD_MONEY_ERRORS.topupAmountRequired, abort: true })
    .superRefine((value, ctx) => {
      const parsed = parseUnits(value, TOPUP_DECIMALS);
      if (!parsed.ok || parsed.units <= 0n) {
        ctx.addIssue({ code: 'custom', message: CARD_MONEY_ERRORS.topupAmountInvalid });
      } else if (parsed.units < 10n ** BigInt(TOPUP_DECIMALS)) {
        ctx.addIssue({ code: 'custom', message: CARD_MONEY_ERRORS.topupBelowMinimum });
      }
    }),
});
export type CardTopupInput = z.infer<typeof cardTopupSchema>;

/** `GET /account/price/conversion`: how much the other side is worth, `currency` being what `amount` is in. */
export const priceConversionQuery = z.object({
  currency: z.enum(['usdt', 'euro'], { error: CARD_MONEY_ERRORS.conversionCurrencyInvalid }),
  amount: z
    .string({ error: CARD_MONEY_ERRORS.conversionAmountInvalid })
    .trim()
    .regex(/^(0|[1-9]\d{0,11})(\.\d{1,6})?$/, CARD_MONEY_ERRORS.conversionAmountInvalid),
});

/** `GET /account/list/topup_transactions`: one card's top-ups, paged. */
export const topupListQuery = z.object({
  card_number: cardReference,
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(10),
});

const isoDate = z
  .string({ error: CARD_MONEY_ERRORS.statementDateInvalid })
  .regex(/^\d{4}-\d{2}-\d{2}$/, CARD_MONEY_ERRORS.statementDateInvalid)
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), CARD_MONEY_ERRORS.statementDateInvalid);

/**
 * `POST /account/card_transaction`: the statement of one card between two UTC dates (inclusive), settled or
 * unsettled, in USDT or EUR; `size` rows from offset `start`. `today` (YYYY-MM-DD, UTC) is the server's date,
 * given by whoever parses (the server passes its own; the web app passes the browser's).
 */
export function cardTransactionSchema(today: string) {
  return z
    .object({
      card_number: cardReference,
      transaction_type: z.enum(['Settled', 'Unsettled'], { error: CARD_MONEY_ERRORS.statementFilterInvalid }),
      currency: z.enum(['USDT', 'EUR'], { error: CARD_MONEY_ERRORS.statementFilterInvalid }),
      date_from: isoDate,
      date_to: isoDate,
      size: z.coerce.number().int().min(1).max(100).default(STATEMENT_PAGE_SIZE),
      start: z.coerce.number().int().min(0).default(0),
    })
    .superRefine((v, ctx) => {
      const issue = (message: string, path: string) =>
        ctx.addIssue({ code: 'custom', message, path: [path] });
      if (v.date_from > today) return issue(CARD_MONEY_ERRORS.statementFutureDate, 'date_from');
      if (v.date_to > today) return issue(CARD_MONEY_ERRORS.statementFutureDate, 'date_to');
      if (v.date_to < v.date_from) return issue(CARD_MONEY_ERRORS.statementRangeInvalid, 'date_to');
      const days = (Date.parse(v.date_to) - Date.parse(v.date_from)) / 86_400_000;
      if (days > STATEMENT_MAX_DAYS) issue(CARD_MONEY_ERRORS.statementRangeTooLong, 'date_to');
    });
}
export type CardTransactionInput = z.infer<ReturnType<typeof cardTransactionSchema>>;
