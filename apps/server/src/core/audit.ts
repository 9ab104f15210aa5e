import type pg from 'pg';

/** One broken rule found by {@link auditLedger}. */
export interface AuditFailure {
  rule: string;
  currency: string;
  account?: string;
  detail: string;
}

/**
 * Checks the money invariants on a live database:
 * 1. per currency, user balances + locked + system accounts sum to zero (the `external` account carries the net
 *    outside flow with the opposite sign), i.e. money is conserved;
 * 2. every batch of postings sums to zero per currency (double entry);
 * 3. every user balance and locked amount, and every system account, equals the sum of its postings.
 */
export async function auditLedger(db: pg.Pool): Promise<AuditFailure[]> {
  const failures: AuditFailure[] = [];
  const conservation = await db.query(
    `with totals as (
       select currency_id, sum(balance + locked) as amount from balances group by currency_id
       union all select currency_id, sum(amount) from system_balances group by currency_id)
     select currency_id, sum(amount)::text as total from totals group by currency_id having sum(amount) <> 0`,
  );
  for (const r of conservation.rows) {
    failures.push({
      rule: 'conservation',
      currency: r.currency_id,
      detail: `accounts sum to ${r.total}, not 0`,
    });
  }
  const unbalanced = await db.query(
    `select coalesce(batch_seq::text, ref, 'none') as batch, currency_id, sum(amount)::text as total
     from ledger_postings group by coalesce(batch_seq::text, ref, 'none'), currency_id having sum(amount) <> 0`,
  );
  for (const r of unbalanced.rows) {
    failures.push({
      rule: 'double-entry',
      currency: r.currency_id,
      detail: `batch ${r.batch} postings sum to ${r.total}`,
    });
  }
  const mismatched = await db.query(
    `with posted as (select account, currency_id, sum(amount) as total from ledger_postings group by 1, 2),
     held as (
       select 'u:' || user_id || ':main' as account, currency_id, balance as amount from balances
       union all select 'u:' || user_id || ':locked', currency_id, locked from balances
       union all select account, currency_id, amount from system_balances)
     select coalesce(h.account, p.account) as account, coalesce(h.currency_id, p.currency_id) as currency_id,
       coalesce(h.amount, 0)::text as held, coalesce(p.total, 0)::text as posted
     from held h full join posted p on p.account = h.account and p.currency_id = h.currency_id
     where coalesce(h.amount, 0) <> coalesce(p.total, 0)
     order by 2, 1 limit 100`,
  );
  for (const r of mismatched.rows) {
    failures.push({
      rule: 'balance-equals-postings',
      currency: r.currency_id,
      account: r.account,
      detail: `holds ${r.held} but its postings sum to ${r.posted}`,
    });
  }
  return failures;
}
