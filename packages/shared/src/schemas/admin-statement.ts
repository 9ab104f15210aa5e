import { z } from 'zod';
import { ADMIN_ERRORS } from './admin.ts';

/**
 * A customer's statement of account in one currency (`/api/v2/admin/users/{uid}/statement`, permission
 * `statements.read`): every movement of the currency on the customer's available and held balances, oldest first,
 * each with the command that made it, its cause and what the cause refers to, and the balances after it.
 */

/** What moved money (the ledger's causes): see the engine's `PostingCause`. */
export const STATEMENT_CAUSES = [
  'order',
  'trade',
  'fee',
  'deposit',
  'withdrawal',
  'adjustment',
  'transfer',
  'swap',
  'card_topup',
  'card_fee',
  'card_refund',
  'liquidity',
] as const;

/** The query of a statement: the currency, paging (oldest first), and an optional window of time. */
export const statementQuery = z.object({
  currency: z
    .string({ error: ADMIN_ERRORS.statementInvalidCurrency })
    .min(1, ADMIN_ERRORS.statementInvalidCurrency)
    .max(10, ADMIN_ERRORS.statementInvalidCurrency),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  /** ISO 8601 times; movements at or after `from` and before `to`. */
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});
export type StatementQuery = z.infer<typeof statementQuery>;
