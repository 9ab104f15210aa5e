import type pg from 'pg';
import { auditLedger } from '../core/audit.ts';
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
    await client.query('begin isolation level repeatable read read only');
    const exported = await client.query<{ id: string }>('select pg_export_snapshot() as id');
    const failures = await auditLedger(client);
    const audit = {
      passed: failures.length === 0,
      failures: failures.map(
        (f) => `${f.rule}: ${f.currency}${f.account ? ` ${f.account}` : ''}: ${f.detail}`,
      ),
    };
    const result = await work(exported.rows[0]?.id ?? '', audit);
    await client.query('commit');
    return result;
  } finally {
    client.release();
  }
}

/** The ledger audit in one snapshot, summarised for a manifest. */
export function auditInSnapshot(pool: pg.Pool): Promise<AuditSummary> {
  return withAuditedSnapshot(pool, async (_snapshot, audit) => audit);
}
