/**
 * The console's ledger view (`/api/v2/admin/ledger`, permission `ledger.read`): what the exchange holds per
 * currency, who holds it (users, and each system account), and whether the books balance (`npm run audit`).
 */

/** The system accounts of the ledger: trading fees, net outside flow, card float, swap liquidity. */
export const LEDGER_SYSTEM_ACCOUNTS = ['fees', 'external', 'card', 'swap'] as const;
export type LedgerSystemAccount = (typeof LEDGER_SYSTEM_ACCOUNTS)[number];

/**
 * One currency's totals, decimals as strings. `external` is the net flow to the outside world with the opposite
 * sign (deposits make it negative), so `sum` (users' balance + locked + every system account) is `0` when money
 * is conserved.
 */
export interface LedgerTotalsEntity {
  currency: string;
  /** Users' available balances. */
  balance: string;
  /** Users' amounts held for orders and withdrawals. */
  locked: string;
  fees: string;
  external: string;
  card: string;
  swap: string;
  sum: string;
}

/** One broken rule of the ledger audit. */
export interface LedgerAuditFailure {
  rule: string;
  currency: string;
  account?: string;
  detail: string;
}

/** `GET /ledger`: totals per currency and the audit, read from one snapshot of the database. */
export interface LedgerViewEntity {
  totals: LedgerTotalsEntity[];
  audit: { clean: boolean; failures: LedgerAuditFailure[] };
  /** When it was read (ISO 8601 UTC). */
  at: string;
}
