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
