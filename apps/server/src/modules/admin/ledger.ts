import type { LedgerTotalsEntity, LedgerViewEntity } from '@exchange/shared';
import type pg from 'pg';
import { auditLedger } from '../../core/audit.ts';
import { withReadSnapshot } from '../../db/pool.ts';

/** Per currency: users' balances and holds, each system account, and their sum (0 when money is conserved). */
const TOTALS = `with u as (select currency_id, sum(balance) as balance, sum(locked) as locked from balances group by 1),
  s as (select currency_id,
      coalesce(sum(amount) filter (where account = 'fees'), 0) as fees,
      coalesce(sum(amount) filter (where account = 'external'), 0) as external,
      coalesce(sum(amount) filter (where account = 'card'), 0) as card,
      coalesce(sum(amount) filter (where account = 'swap'), 0) as swap
    from system_balances group by 1)
  select c.id as currency,
    trim_scale(coalesce(u.balance, 0))::text as balance, trim_scale(coalesce(u.locked, 0))::text as locked,
    trim_scale(coalesce(s.fees, 0))::text as fees, trim_scale(coalesce(s.external, 0))::text as external,
    trim_scale(coalesce(s.card, 0))::text as card, trim_scale(coalesce(s.swap, 0))::text as swap,
    trim_scale(coalesce(u.balance, 0) + coalesce(u.locked, 0) + coalesce(s.fees, 0) + coalesce(s.external, 0)
      + coalesce(s.card, 0) + coalesce(s.swap, 0))::text as sum
  from currencies c left join u on u.currency_id = c.id left join s on s.currency_id = c.id
  order by c.position, c.id`;

/**
 * The ledger as accountants see it: totals per currency and system account, and the audit of `npm run audit`,
 * both read in one repeatable-read snapshot so the totals shown are the ones the audit checked.
 */
export function ledgerView(db: pg.Pool): Promise<LedgerViewEntity> {
  return withReadSnapshot(db, async (client) => {
    const totals = (await client.query<LedgerTotalsEntity>(TOTALS)).rows;
    const failures = await auditLedger(client);
    const at = (await client.query('select now() as at')).rows[0].at as Date;
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
