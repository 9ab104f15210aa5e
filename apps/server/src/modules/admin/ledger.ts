import type { LedgerTotalsEntity, LedgerViewEntity } from '@exchange/shared';
import type pg from 'pg';
import { auditLedger } from '../../core/audit.ts';
import { withReadSnapshot } from '../../db/pool.ts';
import { ledgerTotals, transactionTime } from './ledger-repository.ts';

/**
 * The ledger as accountants see it: totals per currency and system account, and the audit of `npm run audit`,
 * both read in one repeatable-read snapshot so the totals shown are the ones the audit checked.
 */
export function ledgerView(db: pg.Pool): Promise<LedgerViewEntity> {
  return withReadSnapshot(db, async (client) => {
    const totals = await ledgerTotals(client);
    const failures = await auditLedger(client);
    const at = await transactionTime(client);
    return { totals, audit: { clean: failures.length === 0, failures }, at: at.toISOString() };
  });
}

/** The columns of the ledger CSV, in order (one row per currency). */
export const LEDGER_CSV_COLUMNS = [
  'currency',
  'balance',
  'locked',
  'fees',
  'external',
  'card',
  'swap',
  'sum',
] as const satisfies readonly (keyof LedgerTotalsEntity)[];

/** One CSV field (RFC 4180): quoted, with quotes doubled, when it holds a comma, a quote or a line break. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** The totals as CSV with a header line, CRLF line ends (RFC 4180). */
export function ledgerCsv(totals: LedgerTotalsEntity[]): string {
  const lines = [LEDGER_CSV_COLUMNS.join(',')];
  for (const row of totals) lines.push(LEDGER_CSV_COLUMNS.map((c) => csvField(row[c])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
