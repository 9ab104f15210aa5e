/**
 * The console's ledger view (`/api/v2/admin/ledger`, permission `ledger.read`): what the exchange holds per
 * currency, who holds it (users, and each system account), and whether the books balance (`npm run audit`).
 */

/** The system accounts of the ledger: trading fees, net outside flow, card float, swap liquidity. */
export const LEDGER_SYSTEM_ACCOUNTS = ['fees', 'external', 'card', 'swap'] as const;
export type LedgerSystemAccount = (typeof LEDGER_SYSTEM_ACCOUNTS)[number];
