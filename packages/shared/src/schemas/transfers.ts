import { z } from 'zod';
import { textField } from '../validation.ts';
import { amountText, blockchainKey, currencyId } from './wallet.ts';

/**
 * Transfer to another user (FAQ: "Transfers to another user may target an email, a phone number or an address,
 * and need the account password"): error codes of `POST /account/internal_transfers`, the path Peatio gives
 * transfers between its members. Amount codes are the withdrawal's (`account.withdraw.*`), as are the
 * permission (level 3, 2FA, no 24-hour hold) and the balance check.
 */
export const TRANSFER_ERRORS = {
  /** No recipient given ("Enter the recipient's email, phone number or address") (422). */
  recipientRequired: 'account.internal_transfer.missing_recipient',
  /**
   * No active user of the exchange has that email, confirmed phone number or deposit address of the currency
   * (422). Asked only after the password was right, and the same whatever the reason.
   */
  recipientNotFound: 'account.internal_transfer.recipient_not_found',
  /** The recipient is the sender (422). */
  selfTransfer: 'account.internal_transfer.self_transfer',
  /** Password missing ("Password is required") (422). */
  passwordRequired: 'account.internal_transfer.missing_password',
  /**
   * Password wrong (422): counted against the account like a failed login, which blocks it after 5 (then 401
   * `identity.session.account_blocked`).
   */
  passwordInvalid: 'account.internal_transfer.invalid_password',
} as const;

/** Longest recipient accepted: an email's 254 characters. */
export const TRANSFER_RECIPIENT_MAX = 254;

/** `POST /account/internal_transfers`: `recipient` is an email, a phone number (digits, `+`, spaces, dashes) or an address. */
export const internalTransferSchema = z.object({
  currency: currencyId,
  /**
   * Optional: the network the transfer is recorded under (its minimum applies; an address must be of it). Without
   * it, the network of the recipient's address, or for an email or phone the currency's first open network.
   */
  blockchain_key: blockchainKey.optional(),
  amount: amountText,
  recipient: textField(TRANSFER_ERRORS.recipientRequired, [
    [(v) => v.trim().length > 0, TRANSFER_ERRORS.recipientRequired],
    [(v) => v.trim().length <= TRANSFER_RECIPIENT_MAX, TRANSFER_ERRORS.recipientNotFound],
  ]).transform((v) => v.trim()),
  password: textField(TRANSFER_ERRORS.passwordRequired, [
    [(v) => v.length > 0, TRANSFER_ERRORS.passwordRequired],
    [(v) => v.length <= 128, TRANSFER_ERRORS.passwordInvalid],
  ]),
});
export type InternalTransferInput = z.infer<typeof internalTransferSchema>;

/** The kind of recipient a transfer names, as the server reads it. */
export type RecipientKind = 'email' | 'phone' | 'address';

/** An email has an `@`; a phone number is `+`, digits, spaces and dashes with 7 to 15 digits; anything else is an address. */
export function recipientKind(recipient: string): RecipientKind {
  if (recipient.includes('@')) return 'email';
  const digits = recipient.replace(/[\s-]/g, '').replace(/^\+/, '');
  if (/^\d{7,15}$/.test(digits)) return 'phone';
  return 'address';
}
