import {
  AML_REPORT_BUSINESS_HOURS,
  addBusinessDays,
  addBusinessHours,
  formatUnits,
  MONITORING_ERRORS,
  WITHDRAW_REVIEW_REASONS,
} from '@exchange/shared';
import type pg from 'pg';
import { withTransaction } from '../../../db/pool.ts';
import { AppError } from '../../../http/errors.ts';
import { refuseOwnAccount, type Staff } from '../../admin/access.ts';
import { recordStaffAction } from '../../admin/trail.ts';
import { isoSql } from '../../identity/users-repository.ts';

const eur = (cents: string | null) => (cents === null ? null : formatUnits(BigInt(cents), 2));

/** An alert as the console lists it. */
export interface AlertView {
  id: number;
  uid: string;
  email: string;
  rule: string;
  state: string;
  eur: string | null;
  facts: Record<string, unknown>;
  operation_ids: number[];
  reason: string | null;
  report_id: number | null;
  created_at: string;
  decided_at: string | null;
}

const ALERT_SELECT = `select a.id::int, u.uid, u.email, a.rule, a.state, a.eur_cents::text, a.facts,
    a.operation_ids::int[] as operation_ids, a.reason, r.id::int as report_id,
    ${isoSql('a.created_at')} as created_at, ${isoSql('a.decided_at')} as decided_at
  from aml_alerts a join users u on u.id = a.user_id left join aml_reports r on r.alert_id = a.id`;

function alertView(row: Record<string, unknown>): AlertView {
  const { eur_cents, ...rest } = row;
  return { ...(rest as Omit<AlertView, 'eur'>), eur: eur(eur_cents as string | null) };
}

/** The alerts in `state` (open by default), newest first, with the total for paging. */
export async function listAlerts(
  db: pg.Pool,
  q: { state: 'open' | 'closed' | 'escalated' | 'all'; page: number; limit: number },
): Promise<{ items: AlertView[]; total: number }> {
  const where = `where ($1 = 'all' or a.state = $1)`;
  const [rows, total] = await Promise.all([
    db.query(`${ALERT_SELECT} ${where} order by a.id desc limit $2 offset $3`, [
      q.state,
      q.limit,
      (q.page - 1) * q.limit,
    ]),
    db.query(`select count(*)::int as n from aml_alerts a ${where}`, [q.state]),
  ]);
  return { items: rows.rows.map(alertView), total: total.rows[0].n };
}

async function alertById(db: pg.Pool, id: number): Promise<AlertView> {
  return alertView((await db.query(`${ALERT_SELECT} where a.id = $1`, [id])).rows[0]);
}

const notOpen = () => new AppError(422, [MONITORING_ERRORS.alertNotOpen]);

/** Locks an open alert for a decision; refuses one about the staff member's own account. */
async function lockOpenAlert(tx: pg.PoolClient, staff: Staff, id: number) {
  const row = (
    await tx.query(
      `select a.user_id, a.rule, u.uid from aml_alerts a join users u on u.id = a.user_id
       where a.id = $1 and a.state = 'open' for update of a`,
      [id],
    )
  ).rows[0];
  if (!row) throw notOpen();
  refuseOwnAccount(staff, row.user_id);
  return row as { user_id: string; rule: string; uid: string };
}

/** Closes an open alert as a false positive, with the reason (in the trail). */
export async function closeAlert(db: pg.Pool, staff: Staff, id: number, reason: string): Promise<AlertView> {
  await withTransaction(db, async (tx) => {
    const alert = await lockOpenAlert(tx, staff, id);
    await tx.query(
      `update aml_alerts set state = 'closed', reason = $2, decided_by = $3, decided_at = now() where id = $1`,
      [id, reason, staff.user.id],
    );
    await recordStaffAction(tx, staff, 'monitoring.alert.close', alert.uid, {
      before: { alert: id, rule: alert.rule, state: 'open' },
      after: { state: 'closed', reason },
    });
  });
  return alertById(db, id);
}

/**
 * Escalates an open alert to a report to the financial intelligence unit. The suspicion is formed now, by the
 * officer who escalates (the alert itself is only a rule's signal), so the policy's clock starts now: the report is
 * due `AML_REPORT_BUSINESS_HOURS` business hours later.
 */
export async function escalateAlert(
  db: pg.Pool,
  staff: Staff,
  id: number,
  narrative: string,
  /** Now on the app's clock: the suspicion's moment, from which the report's due date runs. */
  now: Date,
): Promise<ReportView> {
  const reportId = await withTransaction(db, async (tx) => {
    const alert = await lockOpenAlert(tx, staff, id);
    await tx.query(
      `update aml_alerts set state = 'escalated', reason = $2, decided_by = $3, decided_at = now() where id = $1`,
      [id, narrative, staff.user.id],
    );
    const due = addBusinessHours(now, AML_REPORT_BUSINESS_HOURS);
    const created = await tx.query(
      `insert into aml_reports (alert_id, user_id, suspicion_at, due_at, narrative, created_by)
       values ($1, $2, $3, $4, $5, $6) returning id::int`,
      [id, alert.user_id, now, due, narrative, staff.user.id],
    );
    const report = created.rows[0].id as number;
    await recordStaffAction(tx, staff, 'monitoring.alert.escalate', alert.uid, {
      before: { alert: id, rule: alert.rule, state: 'open' },
      after: { state: 'escalated', report, due_at: due.toISOString() },
    });
    return report;
  });
  return reportView(db, staff, reportId, now);
}

/** A report with the policy's clock and its suspensions. */
export interface ReportView {
  id: number;
  alert_id: number;
  uid: string;
  email: string;
  narrative: string;
  suspicion_at: string;
  due_at: string;
  /** Milliseconds left until `due_at` (negative once overdue), at the time of the answer. */
  due_in_ms: number;
  overdue: boolean;
  exported_at: string | null;
  suspensions: { withdrawal_id: number; until: string; lifted_at: string | null }[];
}

/** A report by id (404 when unknown; 403 for the staff member's own account). */
export async function reportView(db: pg.Pool, staff: Staff, id: number, now: Date): Promise<ReportView> {
  const row = (
    await db.query(
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
  if (!row) throw new AppError(404, [MONITORING_ERRORS.reportNotFound]);
  refuseOwnAccount(staff, row.user_id);
  const { user_id: _user, ...rest } = row;
  const dueIn = new Date(row.due_at).getTime() - now.getTime();
  return { ...rest, due_in_ms: dueIn, overdue: dueIn < 0 };
}

/**
 * Suspends a pending withdrawal of the report's customer for `days` business days: it goes (back) to the review
 * queue with the reason `aml.suspended`, and the database refuses its approval until the suspension ends. Only
 * before it is broadcast (prepared, under review or accepted).
 */
export async function suspendWithdrawal(
  db: pg.Pool,
  staff: Staff,
  reportId: number,
  withdrawalId: number,
  days: number,
  /** Now on the app's clock: the suspension runs from it. */
  now: Date,
): Promise<ReportView> {
  const report = await reportView(db, staff, reportId, now);
  await withTransaction(db, async (tx) => {
    const w = (
      await tx.query(
        `select w.user_id, w.internal_user_id, w.state from withdrawals w join aml_reports r on r.id = $2
         where w.id = $1 and (w.user_id = r.user_id or w.internal_user_id = r.user_id) for update of w`,
        [withdrawalId, reportId],
      )
    ).rows[0];
    if (!w || !['prepared', 'under_review', 'accepted'].includes(w.state))
      throw new AppError(422, [MONITORING_ERRORS.notSuspendable]);
    refuseOwnAccount(staff, w.user_id, w.internal_user_id);
    const until = addBusinessDays(now, days);
    await tx.query(
      `update withdrawals set state = 'under_review', updated_at = now(),
         review_reasons = case when $2 = any(coalesce(review_reasons, '{}')) then review_reasons
                               else array_append(coalesce(review_reasons, '{}'), $2) end
       where id = $1`,
      [withdrawalId, WITHDRAW_REVIEW_REASONS.amlSuspended],
    );
    await tx.query(
      `update aml_suspensions set lifted_at = now() where withdrawal_id = $1 and lifted_at is null`,
      [withdrawalId],
    );
    await tx.query(
      `insert into aml_suspensions (report_id, withdrawal_id, until, suspended_by) values ($1, $2, $3, $4)`,
      [reportId, withdrawalId, until, staff.user.id],
    );
    await recordStaffAction(tx, staff, 'monitoring.withdrawal.suspend', `withdrawal:${withdrawalId}`, {
      before: { state: w.state },
      after: { state: 'under_review', report: reportId, until: until.toISOString() },
    });
  });
  return reportView(db, staff, report.id, now);
}
