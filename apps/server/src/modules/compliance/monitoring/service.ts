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
import {
  type AlertRow,
  alertCount,
  alertPage,
  alertRow,
  lockOpenAlertRow,
  markAlertDecided,
} from './alert-repository.ts';
import {
  insertReport,
  lockReportWithdrawal,
  reportRow,
  suspendReportWithdrawal,
} from './report-repository.ts';

/** EUR cents (decimal text, as stored) as a EUR amount (decimal text); null stays null. */
export const eurOfCents = (cents: string | null) => (cents === null ? null : formatUnits(BigInt(cents), 2));

/** An alert as the console lists it: its row with the EUR value as an amount (decimal text), not cents. */
export type AlertView = Omit<AlertRow, 'eur_cents'> & { eur: string | null };

function alertView(row: AlertRow): AlertView {
  const { eur_cents, ...rest } = row;
  return { ...rest, eur: eurOfCents(eur_cents) };
}

/** The alerts in `state` (open by default), newest first, with the total for paging. */
export async function listAlerts(
  db: pg.Pool,
  q: { state: 'open' | 'closed' | 'escalated' | 'all'; page: number; limit: number },
): Promise<{ items: AlertView[]; total: number }> {
  const [rows, total] = await Promise.all([
    alertPage(db, q.state, q.limit, (q.page - 1) * q.limit),
    alertCount(db, q.state),
  ]);
  return { items: rows.map(alertView), total };
}

async function alertById(db: pg.Pool, id: number): Promise<AlertView> {
  const row = await alertRow(db, id);
  // Only called for an alert just decided, so it exists.
  if (!row) throw new Error(`alert ${id} vanished`);
  return alertView(row);
}

const notOpen = () => new AppError(422, [MONITORING_ERRORS.alertNotOpen]);

/** Locks an open alert for a decision; refuses one about the staff member's own account. */
async function lockOpenAlert(tx: pg.PoolClient, staff: Staff, id: number) {
  const row = await lockOpenAlertRow(tx, id);
  if (!row) throw notOpen();
  refuseOwnAccount(staff, row.user_id);
  return row;
}

/** Closes an open alert as a false positive, with the reason (in the trail). */
export async function closeAlert(
  db: pg.Pool,
  staff: Staff,
  id: number,
  reason: string,
  /** Now on the app's clock: the decision's time. */
  now: Date,
): Promise<AlertView> {
  await withTransaction(db, async (tx) => {
    const alert = await lockOpenAlert(tx, staff, id);
    await markAlertDecided(tx, id, 'closed', reason, staff.user.id, now);
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
    await markAlertDecided(tx, id, 'escalated', narrative, staff.user.id, now);
    const due = addBusinessHours(now, AML_REPORT_BUSINESS_HOURS);
    const report = await insertReport(tx, {
      alertId: id,
      userId: alert.user_id,
      suspicionAt: now,
      dueAt: due,
      narrative,
      createdBy: staff.user.id,
    });
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
  const row = await reportRow(db, id);
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
    const w = await lockReportWithdrawal(tx, withdrawalId, reportId);
    if (!w || !['prepared', 'under_review', 'accepted'].includes(w.state))
      throw new AppError(422, [MONITORING_ERRORS.notSuspendable]);
    refuseOwnAccount(staff, w.user_id, w.internal_user_id);
    const until = addBusinessDays(now, days);
    await suspendReportWithdrawal(tx, {
      reportId,
      withdrawalId,
      reason: WITHDRAW_REVIEW_REASONS.amlSuspended,
      until,
      suspendedBy: staff.user.id,
      at: now,
    });
    await recordStaffAction(tx, staff, 'monitoring.withdrawal.suspend', `withdrawal:${withdrawalId}`, {
      before: { state: w.state },
      after: { state: 'under_review', report: reportId, until: until.toISOString() },
    });
  });
  return reportView(db, staff, report.id, now);
}
