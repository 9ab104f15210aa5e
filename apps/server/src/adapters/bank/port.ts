/**
 * The bank port: SEPA payouts of fiat withdrawals. `FINISHED`: paid; `PROCESSING`: the bank answers later (ask
 * `status`); `ERROR`: refused, nothing paid.
 */
export interface BankPort {
  payout(request: PayoutRequest): Promise<PayoutResult>;
  /** The payout's state, by our reference: known even when the answer to `payout` was lost. */
  status(reference: string): Promise<PayoutResult>;
}

export interface PayoutRequest {
  /** Our reference, unique per withdrawal: a repeat is answered with the first outcome. */
  reference: string;
  iban: string;
  holder: string;
  currency: string;
  /** Decimal string. */
  amount: string;
}

export interface PayoutResult {
  status: 'FINISHED' | 'PROCESSING' | 'ERROR';
  bankRef: string;
  reason?: string;
}

/** ISO 13616 IBAN check: country, check digits, and the mod-97 remainder of 1. */
export function validIban(text: string): boolean {
  const iban = text.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const value = /\d/.test(ch) ? ch : String(ch.charCodeAt(0) - 55);
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/**
 * The exchange's own account at the bank, where customers send EUR deposits (shown on the deposit page with the
 * customer's reference).
 */
export interface CollectionAccount {
  iban: string;
  bic: string;
  /** The beneficiary name a sender enters. */
  name: string;
}

/**
 * One SEPA credit transfer booked on the collection account, with the fields an ISO 20022 camt.054 (or camt.053)
 * entry carries for it. Amounts are decimal strings with two decimals, never floats.
 */
export interface IncomingCreditTransfer {
  /** The bank's own id of the booked entry (`AcctSvcrRef`): unique, what crediting is idempotent on. */
  transactionId: string;
  amount: string;
  currency: string;
  debtorName: string;
  debtorIban: string;
  /** Unstructured remittance information (`RmtInf/Ustrd`), up to 140 characters. */
  remittanceInformation: string | null;
  /** The structured creditor reference (`RmtInf/Strd/CdtrRefInf/Ref`), e.g. an RF reference. */
  creditorReference: string | null;
  /** The sender's end-to-end id (`EndToEndId`), `NOTPROVIDED` when it gave none. */
  endToEndId: string;
  /** `YYYY-MM-DD`. */
  bookingDate: string;
}

/**
 * The body of the bank's credit notification (a camt.054 in JSON): the account and its booked credit entries.
 * The same shape the simulator sends and the exchange's webhook reads.
 */
export interface CreditNotification {
  notification_id: string;
  account: { iban: string };
  entries: Array<{
    acct_svcr_ref: string;
    credit_debit: 'CRDT' | 'DBIT';
    status: 'BOOK' | 'PDNG';
    amount: string;
    currency: string;
    booking_date: string;
    end_to_end_id: string;
    debtor: { name: string; iban: string };
    remittance: { unstructured: string | null; creditor_reference: string | null };
  }>;
}

/** The booked credit entries of a notification as {@link IncomingCreditTransfer}s (debits and pending left out). */
export function creditTransfersOf(notification: CreditNotification): IncomingCreditTransfer[] {
  return notification.entries
    .filter((e) => e.credit_debit === 'CRDT' && e.status === 'BOOK')
    .map((e) => ({
      transactionId: e.acct_svcr_ref,
      amount: e.amount,
      currency: e.currency,
      debtorName: e.debtor.name,
      debtorIban: e.debtor.iban,
      remittanceInformation: e.remittance.unstructured,
      creditorReference: e.remittance.creditor_reference,
      endToEndId: e.end_to_end_id,
      bookingDate: e.booking_date,
    }));
}
