import type { RiskClass, RiskProfileEntity } from '@exchange/shared';
import type pg from 'pg';
import type { Tx } from '../../../db/pool.ts';
import { isoSql } from '../../identity/users-repository.ts';

type Db = pg.Pool | Tx;

/** What the risk rules read of a customer, and their current profile (null columns before the first one). */
export interface RiskFactsRow {
  account_type: string;
  /** The newest profile's country, upper case. */
  country: string | null;
  company_country: string | null;
  open_alerts: boolean;
  reported: boolean;
  class: RiskClass | null;
  source: 'rules' | 'staff' | null;
  pep: boolean | null;
  pep_left_office: string | null;
  /** Today in Warsaw (YYYY-MM-DD), by the database's clock. */
  today: string;
}

/** A risk profile as it stood before staff set it (undefined columns: none yet). */
export interface RiskProfileBefore {
  class: RiskClass;
  reasons: string[];
  source: 'rules' | 'staff';
  note: string | null;
}

/** What staff set on a customer's risk profile. */
export interface StaffRiskInput {
  class: RiskClass;
  reason: string;
  pep: boolean;
  pep_left_office: string | null;
}

/**
 * The customer's facts the rules class them by, with their profile and `today` (Warsaw) at `now`, the app's clock;
 * undefined for an unknown user.
 */
export async function riskFacts(db: Db, userId: number, now: Date): Promise<RiskFactsRow | undefined> {
  return (
    await db.query<RiskFactsRow>(
      `select u.account_type,
         (select upper(country) from profiles where user_id = u.id order by id desc limit 1) as country,
         (select country from companies where user_id = u.id) as company_country,
         exists (select 1 from aml_alerts where user_id = u.id and state = 'open') as open_alerts,
         exists (select 1 from aml_alerts where user_id = u.id and state = 'escalated') as reported,
         r.class, r.source, r.pep, r.pep_left_office::text,
         to_char($2::timestamptz at time zone 'Europe/Warsaw', 'YYYY-MM-DD') as today
       from users u left join aml_risk_profiles r on r.user_id = u.id where u.id = $1`,
      [userId, now],
    )
  ).rows[0];
}

/**
 * Sets the class the rules give (with its reasons), due for review a year after `now` (the app's clock) or by the
 * earlier due date it had; a change only when the class, the reasons or the source differ.
 */
export async function upsertRulesClass(
  db: Db,
  userId: number,
  cls: RiskClass,
  reasons: string[],
  now: Date,
): Promise<void> {
  await db.query(
    `insert into aml_risk_profiles (user_id, class, reasons, source, review_due)
     values ($1, $2, $3, 'rules', $4::timestamptz + interval '1 year')
     on conflict (user_id) do update set class = excluded.class, reasons = excluded.reasons, source = 'rules',
       note = null, set_by = null,
       review_due = least(aml_risk_profiles.review_due, excluded.review_due),
       updated_at = now()
     where aml_risk_profiles.class <> excluded.class or aml_risk_profiles.reasons <> excluded.reasons
       or aml_risk_profiles.source <> 'rules'`,
    [userId, cls, reasons, now],
  );
}

/** A profile as staff see it; `nowParam` is the query's parameter for now (the app's clock), for `overdue`. */
const profileSelect = (nowParam: string) => `select u.uid, u.email, r.class, r.reasons, r.source, r.note,
    ${isoSql('r.review_due')} as review_due, r.review_due < ${nowParam} as overdue, r.pep,
    r.pep_left_office::text as pep_left_office
  from aml_risk_profiles r join users u on u.id = r.user_id`;

/** Risk profiles, the overdue reviews first (only those overdue at `now` with `overdueOnly`), then by due date. */
export async function riskProfiles(db: Db, overdueOnly: boolean, now: Date): Promise<RiskProfileEntity[]> {
  return (
    await db.query<RiskProfileEntity>(
      `${profileSelect('$2')} where not $1 or r.review_due < $2 order by r.review_due, u.id limit 500`,
      [overdueOnly, now],
    )
  ).rows;
}

/** The risk profile of the user with this uid, `overdue` at `now` (undefined without one). */
export async function riskProfileOf(db: Db, uid: string, now: Date): Promise<RiskProfileEntity | undefined> {
  return (await db.query<RiskProfileEntity>(`${profileSelect('$2')} where u.uid = $1`, [uid, now])).rows[0];
}

/** The id of the user with this uid (bigint as text), or undefined. */
export async function userIdOfUid(db: Db, uid: string): Promise<string | undefined> {
  return (await db.query<{ id: string }>(`select id from users where uid = $1`, [uid])).rows[0]?.id;
}

/** The customer's risk profile before a staff change (undefined without one). */
export async function riskProfileBefore(db: Db, userId: string): Promise<RiskProfileBefore | undefined> {
  return (
    await db.query<RiskProfileBefore>(
      `select class, reasons, source, note from aml_risk_profiles where user_id = $1`,
      [userId],
    )
  ).rows[0];
}

/** Sets the class staff chose with their reason and the PEP flag, due for review a year after `now`. */
export async function upsertStaffClass(
  db: Db,
  userId: string,
  input: StaffRiskInput,
  setBy: string,
  now: Date,
): Promise<void> {
  await db.query(
    `insert into aml_risk_profiles (user_id, class, reasons, source, note, set_by, review_due, pep, pep_left_office)
       values ($1, $2, '{staff}', 'staff', $3, $4, $7::timestamptz + interval '1 year', $5, $6)
       on conflict (user_id) do update set class = excluded.class, reasons = excluded.reasons, source = 'staff',
         note = excluded.note, set_by = excluded.set_by, review_due = excluded.review_due, pep = excluded.pep,
         pep_left_office = excluded.pep_left_office, updated_at = $7`,
    [userId, input.class, input.reason, setBy, input.pep, input.pep_left_office, now],
  );
}
