import type pg from 'pg';
import { auditLedger } from '../core/audit.ts';
import { beginExportedSnapshot, endSnapshot } from './backup-repository.ts';
import type { AuditSummary } from './manifest.ts';

/**
 * Runs the ledger audit in one repeatable-read snapshot, then `work` with that snapshot exported (for
 * `pg_dump --snapshot`, so that the dump holds exactly what was audited). The snapshot lives until `work` ends.
 */
export async function withAuditedSnapshot<T>(
  pool: pg.Pool,
  work: (snapshot: string, audit: AuditSummary) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    const snapshot = await beginExportedSnapshot(client);
    const failures = await auditLedger(client);
    const audit = {
      passed: failures.length === 0,
      failures: failures.map(
        (f) => `${f.rule}: ${f.currency}${f.account ? ` ${f.account}` : ''}: ${f.detail}`,
      ),
    };
    const result = await work(snapshot, audit);
    await endSnapshot(client);
    return result;
  } finally {
    client.release();
  }
}

/** The ledger audit in one snapshot, summarised for a manifest. */
export function auditInSnapshot(pool: pg.Pool): Promise<AuditSummary> {
  return withAuditedSnapshot(pool, async (_snapshot, audit) => audit);
}
