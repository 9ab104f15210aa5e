import { MONITORING_ERRORS, type RiskClass, type RiskProfileEntity } from '@exchange/shared';
import type pg from 'pg';
import { withTransaction } from '../../../db/pool.ts';
import { AppError } from '../../../http/errors.ts';
import { refuseOwnAccount, type Staff } from '../../admin/access.ts';
import { recordStaffAction } from '../../admin/trail.ts';
import { isoSql } from '../../identity/users-repository.ts';

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
export async function assessRisk(db: pg.Pool, userId: number, highRisk: readonly string[]): Promise<void> {
  const row = (
    await db.query(
      `select u.account_type,
         (select upper(country) from profiles where user_id = u.id order by id desc limit 1) as country,
         (select country from companies where user_id = u.id) as company_country,
         exists (select 1 from aml_alerts where user_id = u.id and state = 'open') as open_alerts,
         exists (select 1 from aml_alerts where user_id = u.id and state = 'escalated') as reported,
         r.class, r.source, r.pep, r.pep_left_office::text,
         to_char(now() at time zone 'Europe/Warsaw', 'YYYY-MM-DD') as today
       from users u left join aml_risk_profiles r on r.user_id = u.id where u.id = $1`,
      [userId],
    )
  ).rows[0];
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
  if (row.source === 'staff' && RANK[byRules] <= RANK[row.class as RiskClass]) return;
  await db.query(
    `insert into aml_risk_profiles (user_id, class, reasons, source, review_due)
     values ($1, $2, $3, 'rules', now() + interval '1 year')
     on conflict (user_id) do update set class = excluded.class, reasons = excluded.reasons, source = 'rules',
       note = null, set_by = null,
       review_due = least(aml_risk_profiles.review_due, excluded.review_due),
       updated_at = now()
     where aml_risk_profiles.class <> excluded.class or aml_risk_profiles.reasons <> excluded.reasons
       or aml_risk_profiles.source <> 'rules'`,
    [userId, byRules, reasons],
  );
}

/** A profile as staff see it; `nowParam` is the query's parameter for now (the app's clock), for `overdue`. */
const profileSelect = (nowParam: string) => `select u.uid, u.email, r.class, r.reasons, r.source, r.note,
    ${isoSql('r.review_due')} as review_due, r.review_due < ${nowParam} as overdue, r.pep,
    r.pep_left_office::text as pep_left_office
  from aml_risk_profiles r join users u on u.id = r.user_id`;

/** Risk profiles, the overdue reviews first (only those overdue at `now` with `overdue`), then by due date. */
export async function listRiskProfiles(
  db: pg.Pool,
  overdueOnly: boolean,
  now: Date,
): Promise<RiskProfileEntity[]> {
  return (
    await db.query(
      `${profileSelect('$2')} where not $1 or r.review_due < $2 order by r.review_due, u.id limit 500`,
      [overdueOnly, now],
    )
  ).rows;
}

/**
 * Compliance sets a customer's class with the reason (a review: due again in a year, or sooner for a staff
 * choice) and the PEP flag; the change is in the staff trail. Never on the staff member's own account.
 */
export async function setRiskClass(
  db: pg.Pool,
  staff: Staff,
  uid: string,
  input: { class: RiskClass; reason: string; pep: boolean; pep_left_office: string | null },
  now: Date,
): Promise<RiskProfileEntity> {
  await withTransaction(db, async (tx) => {
    const user = (await tx.query(`select id from users where uid = $1`, [uid])).rows[0];
    if (!user) throw new AppError(404, [MONITORING_ERRORS.userNotFound]);
    refuseOwnAccount(staff, user.id);
    const before = (
      await tx.query(`select class, reasons, source, note from aml_risk_profiles where user_id = $1`, [
        user.id,
      ])
    ).rows[0];
    await tx.query(
      `insert into aml_risk_profiles (user_id, class, reasons, source, note, set_by, review_due, pep, pep_left_office)
       values ($1, $2, '{staff}', 'staff', $3, $4, $7::timestamptz + interval '1 year', $5, $6)
       on conflict (user_id) do update set class = excluded.class, reasons = excluded.reasons, source = 'staff',
         note = excluded.note, set_by = excluded.set_by, review_due = excluded.review_due, pep = excluded.pep,
         pep_left_office = excluded.pep_left_office, updated_at = $7`,
      [user.id, input.class, input.reason, staff.user.id, input.pep, input.pep_left_office, now],
    );
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
  return (await db.query(`${profileSelect('$2')} where u.uid = $1`, [uid, now])).rows[0];
}
