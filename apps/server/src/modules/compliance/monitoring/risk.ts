import { MONITORING_ERRORS, type RiskClass, type RiskProfileEntity } from '@exchange/shared';
import type pg from 'pg';
import { withTransaction } from '../../../db/pool.ts';
import { AppError } from '../../../http/errors.ts';
import { refuseOwnAccount, type Staff } from '../../admin/access.ts';
import { recordStaffAction } from '../../admin/trail.ts';
import {
  riskFacts,
  riskProfileBefore,
  riskProfileOf,
  riskProfiles,
  type StaffRiskInput,
  upsertRulesClass,
  upsertStaffClass,
  userIdOfUid,
} from './risk-repository.ts';

/**
 * Why the rules put a customer in a class:
 * - `country.high_risk` (high): the profile's or the company's country is on `AML_HIGH_RISK_COUNTRIES`;
 * - `pep` (high): a politically exposed person, in office or left less than a year ago;
 * - `alerts.reported` (high): an alert of theirs was escalated to a report;
 * - `business` (average): a business account (a company and its owners stand behind it);
 * - `alerts.open` (average): an alert of theirs is open.
 */
export const RISK_REASONS = {
  highRiskCountry: 'country.high_risk',
  pep: 'pep',
  reported: 'alerts.reported',
  business: 'business',
  openAlerts: 'alerts.open',
} as const;

const RANK: Record<RiskClass, number> = { low: 0, average: 1, high: 2 };

/**
 * The class the rules give, from its reasons (pure). The policy reviews every risk profile at least yearly, so each
 * class is due for review a year after it is assessed; a high class never later than that.
 */
export function ruleClass(reasons: readonly string[]): RiskClass {
  const high: string[] = [RISK_REASONS.highRiskCountry, RISK_REASONS.pep, RISK_REASONS.reported];
  if (reasons.some((r) => high.includes(r))) return 'high';
  return reasons.length > 0 ? 'average' : 'low';
}

/** True while a PEP's status lasts: in office (no date), or until one year after leaving office. */
export function pepActive(pep: boolean, leftOffice: string | null, today: string): boolean {
  if (!pep) return false;
  if (leftOffice === null) return true;
  const [y, m, d] = leftOffice.split('-');
  return `${Number(y) + 1}-${m}-${d}` > today;
}

/**
 * Reassesses `userId` by the rules. A class set by staff stands (only a staff review changes it); the rules may
 * only raise it (a new hit is never hidden by an earlier decision). The rules never push a review further out: a
 * profile keeps the earlier of its due date and a year from now, so an overdue review stays overdue until staff
 * review it.
 */
export async function assessRisk(
  db: pg.Pool,
  userId: number,
  highRisk: readonly string[],
  /** Now on the app's clock: the PEP year and the review's due date are read from it. */
  now: Date,
): Promise<void> {
  const row = await riskFacts(db, userId, now);
  if (!row) return;
  const reasons: string[] = [];
  const listed = new Set(highRisk);
  if ((row.country && listed.has(row.country)) || (row.company_country && listed.has(row.company_country)))
    reasons.push(RISK_REASONS.highRiskCountry);
  if (pepActive(row.pep === true, row.pep_left_office, row.today)) reasons.push(RISK_REASONS.pep);
  if (row.reported) reasons.push(RISK_REASONS.reported);
  if (row.account_type === 'business') reasons.push(RISK_REASONS.business);
  if (row.open_alerts) reasons.push(RISK_REASONS.openAlerts);
  const byRules = ruleClass(reasons);
  if (row.source === 'staff' && row.class !== null && RANK[byRules] <= RANK[row.class]) return;
  await upsertRulesClass(db, userId, byRules, reasons, now);
}

/** Risk profiles, the overdue reviews first (only those overdue at `now` with `overdue`), then by due date. */
export async function listRiskProfiles(
  db: pg.Pool,
  overdueOnly: boolean,
  now: Date,
): Promise<RiskProfileEntity[]> {
  return riskProfiles(db, overdueOnly, now);
}

/**
 * Compliance sets a customer's class with the reason (a review: due again in a year, or sooner for a staff
 * choice) and the PEP flag; the change is in the staff trail. Never on the staff member's own account.
 */
export async function setRiskClass(
  db: pg.Pool,
  staff: Staff,
  uid: string,
  input: StaffRiskInput,
  now: Date,
): Promise<RiskProfileEntity> {
  await withTransaction(db, async (tx) => {
    const userId = await userIdOfUid(tx, uid);
    if (userId === undefined) throw new AppError(404, [MONITORING_ERRORS.userNotFound]);
    refuseOwnAccount(staff, userId);
    const before = await riskProfileBefore(tx, userId);
    await upsertStaffClass(tx, userId, input, staff.user.id, now);
    await recordStaffAction(tx, staff, 'monitoring.risk.set', uid, {
      before: before ?? null,
      after: {
        class: input.class,
        reason: input.reason,
        pep: input.pep,
        pep_left_office: input.pep_left_office,
      },
    });
  });
  const profile = await riskProfileOf(db, uid, now);
  // Just set in the transaction above, so it exists.
  if (!profile) throw new Error(`risk profile of ${uid} vanished`);
  return profile;
}
