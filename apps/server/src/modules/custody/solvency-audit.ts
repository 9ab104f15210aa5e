import type pg from 'pg';
import type { Network } from '../wallet/chains.ts';
import { solvencyCheck, solvencyReport } from './solvency.ts';

/** Where the audit writes: lines that pass to `log`, failures to `error` (console in the CLI, a buffer in tests). */
export interface AuditOutput {
  log(line: string): void;
  error(line: string): void;
}

/**
 * The solvency check of `npm run audit`, run after the ledger audit: one line per currency (solvency.ts,
 * {@link solvencyCheck}); false when a coin is insolvent or its chain could not be read while customers are owed
 * some. `networks` are the chain adapters to read balances from; null when the command line has none to give
 * (then the check is reported as skipped, and does not fail the audit).
 */
export async function auditSolvency(
  db: pg.Pool,
  networks: readonly Network[] | null,
  out: AuditOutput,
): Promise<boolean> {
  if (networks === null) {
    out.log('solvency check SKIPPED: no chain adapters in this process to read holdings from');
    return true;
  }
  const lines = solvencyCheck(await solvencyReport(db, networks));
  for (const line of lines) (line.ok ? out.log : out.error)(line.text);
  const failed = lines.filter((l) => !l.ok).length;
  out.log(
    failed === 0
      ? 'solvency check passed: every currency held on chain covers what customers are owed'
      : `solvency check FAILED: ${failed} currency(ies) not covered`,
  );
  return failed === 0;
}
