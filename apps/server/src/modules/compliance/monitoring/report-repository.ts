import type pg from 'pg';
import type { Tx } from '../../../db/pool.ts';
import { isoSql } from '../../identity/users-repository.ts';

type Db = pg.Pool | Tx;

/** A report's suspension of a withdrawal, as the console shows it. */
export interface SuspensionRow {
  withdrawal_id: number;
  until: string;
  lifted_at: string | null;
}

/** A report's row: the customer (bigint id as text), the policy's dates (ISO text) and its suspensions. */
export interface ReportRow {
  id: number;
  alert_id: number;
  user_id: string;
  uid: string;
  email: string;
  narrative: string;
  suspicion_at: string;
  due_at: string;
  exported_at: string | null;
  suspensions: SuspensionRow[];
}

/** A pending withdrawal of a report's customer, locked: whose it is and its state. */
export interface SuspendableWithdrawal {
  user_id: string;
  internal_user_id: string | null;
  state: string;
}

/** The report's subject and alert, as the export takes them (money as decimal text of cents). */
export interface ReportSubjectRow {
  uid: string;
  email: string;
  level: number;
  first_name: string | null;
  last_name: string | null;
  dob: string | null;
  country: string | null;
  address: string | null;
  city: string | null;
  postcode: string | null;
  alert_id: number;
  rule: string;
  eur_cents: string | null;
  facts: Record<string, unknown>;
  ops: number[];
  alert_at: string;
}

/** An operation of a reported alert, as the export takes it (amount and cents as decimal text). */
export interface ReportOperationRow {
  id: number;
  kind: string;
  reference: string;
  currency_id: string;
  amount: string;
  eur_cents: string | null;
  counterparty_country: string | null;
  occurred_at: string;
}

/** Records a report of an escalated alert (suspicion at `suspicionAt`, due at `dueAt`); its id. */
export async function insertReport(
  tx: Tx,
  r: {
    alertId: number;
    userId: string;
    suspicionAt: Date;
    dueAt: Date;
    narrative: string;
    createdBy: string;
  },
): Promise<number> {
  const created = await tx.query<{ id: number }>(
    `insert into aml_reports (alert_id, user_id, suspicion_at, due_at, narrative, created_by)
       values ($1, $2, $3, $4, $5, $6) returning id::int`,
    [r.alertId, r.userId, r.suspicionAt, r.dueAt, r.narrative, r.createdBy],
  );
  const row = created.rows[0];
  if (!row) throw new Error('the report was not recorded');
  return row.id;
}

/** The report with this id and its suspensions (undefined when unknown). */
export async function reportRow(db: Db, id: number): Promise<ReportRow | undefined> {
  return (
    await db.query<ReportRow>(
      `select r.id::int, r.alert_id::int, r.user_id, u.uid, u.email, r.narrative,
         ${isoSql('r.suspicion_at')} as suspicion_at, ${isoSql('r.due_at')} as due_at,
         ${isoSql('r.exported_at')} as exported_at,
         coalesce((select json_agg(json_build_object('withdrawal_id', s.withdrawal_id, 'until', ${isoSql('s.until')},
           'lifted_at', ${isoSql('s.lifted_at')}) order by s.id) from aml_suspensions s where s.report_id = r.id),
           '[]') as suspensions
       from aml_reports r join users u on u.id = r.user_id where r.id = $1`,
      [id],
    )
  ).rows[0];
}

/**
 * Locks the withdrawal if it is the report's customer's (sent or received), `for update` of the withdrawal inside
 * the caller's transaction; undefined otherwise.
 */
export async function lockReportWithdrawal(
  tx: Tx,
  withdrawalId: number,
  reportId: number,
): Promise<SuspendableWithdrawal | undefined> {
  return (
    await tx.query<SuspendableWithdrawal>(
      `select w.user_id, w.internal_user_id, w.state from withdrawals w join aml_reports r on r.id = $2
         where w.id = $1 and (w.user_id = r.user_id or w.internal_user_id = r.user_id) for update of w`,
      [withdrawalId, reportId],
    )
  ).rows[0];
}

/**
 * Suspends the withdrawal for a report until `until`: back to the review queue with `reason` among its review
 * reasons (once), an earlier suspension of it lifted at `at` (the app's clock), the new one recorded.
 */
export async function suspendReportWithdrawal(
  tx: Tx,
  s: { reportId: number; withdrawalId: number; reason: string; until: Date; suspendedBy: string; at: Date },
): Promise<void> {
  await tx.query(
    `update withdrawals set state = 'under_review', updated_at = now(),
         review_reasons = case when $2 = any(coalesce(review_reasons, '{}')) then review_reasons
                               else array_append(coalesce(review_reasons, '{}'), $2) end
       where id = $1`,
    [s.withdrawalId, s.reason],
  );
  await tx.query(`update aml_suspensions set lifted_at = $2 where withdrawal_id = $1 and lifted_at is null`, [
    s.withdrawalId,
    s.at,
  ]);
  await tx.query(
    `insert into aml_suspensions (report_id, withdrawal_id, until, suspended_by) values ($1, $2, $3, $4)`,
    [s.reportId, s.withdrawalId, s.until, s.suspendedBy],
  );
}

/** The report's subject (their newest profile) and its alert, for the export; undefined for an unknown report. */
export async function reportSubject(db: Db, id: number): Promise<ReportSubjectRow | undefined> {
  return (
    await db.query<ReportSubjectRow>(
      `select u.uid, u.email, u.level, p.first_name, p.last_name, p.dob::text, p.country, p.address, p.city,
         p.postcode, a.id::int as alert_id, a.rule, a.eur_cents::text, a.facts, a.operation_ids::int[] as ops,
         ${isoSql('a.created_at')} as alert_at
       from aml_reports r join aml_alerts a on a.id = r.alert_id join users u on u.id = r.user_id
         left join lateral (select * from profiles where user_id = u.id order by id desc limit 1) p on true
       where r.id = $1`,
      [id],
    )
  ).rows[0];
}

/** The valued operations with these ids, oldest first. */
export async function reportOperations(db: Db, ids: number[]): Promise<ReportOperationRow[]> {
  return (
    await db.query<ReportOperationRow>(
      `select id::int, kind, source || ':' || source_id as reference, currency_id, trim_scale(amount)::text as amount,
       eur_cents::text, counterparty_country, ${isoSql('occurred_at')} as occurred_at
     from aml_operations where id = any($1) order by occurred_at, id`,
      [ids],
    )
  ).rows;
}

/** Marks the report exported at `at`. */
export async function markReportExported(db: Db, id: number, at: Date): Promise<void> {
  await db.query(`update aml_reports set exported_at = $2 where id = $1`, [id, at]);
}
