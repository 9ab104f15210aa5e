import type { StaffActionEntity } from '@exchange/shared';
import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';
import { isoSql } from '../identity/users-repository.ts';

/** The SQL of the staff trail (`staff_actions`, append-only: the table refuses updates and deletes). */

type Db = pg.Pool | Tx;

/** A line of the trail to append: who (their user id and role at the time), what, on what, and from where. */
export interface StaffActionInsert {
  staffId: string;
  role: string;
  action: string;
  target: string | null;
  /** The state before and after, as JSON text, or null. */
  before: string | null;
  after: string | null;
  ip: string;
}

/** Appends a line to the trail (in the caller's transaction when `db` is one). */
export async function insertStaffAction(db: Db, line: StaffActionInsert): Promise<void> {
  await db.query(
    `insert into staff_actions (staff_id, role, action, target, before, after, ip)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [line.staffId, line.role, line.action, line.target, line.before, line.after, line.ip],
  );
}

/**
 * A page of the trail, newest first, of one staff member (email, any case) and one action (null: any), with the
 * number of lines matching.
 */
export async function staffActionPage(
  db: pg.Pool,
  filter: { staffEmail: string | null; action: string | null },
  limit: number,
  offset: number,
): Promise<{ items: StaffActionEntity[]; total: number }> {
  const where = `where ($1::text is null or lower(u.email) = lower($1)) and ($2::text is null or a.action = $2)`;
  const params = [filter.staffEmail, filter.action];
  const [rows, total] = await Promise.all([
    db.query<StaffActionEntity>(
      `select a.id::int, u.email as staff, a.role, a.action, a.target, a.before, a.after, a.ip,
         ${isoSql('a.created_at')} as created_at
       from staff_actions a join users u on u.id = a.staff_id ${where}
       order by a.id desc limit $3 offset $4`,
      [...params, limit, offset],
    ),
    db.query<{ n: number }>(
      `select count(*)::int as n from staff_actions a join users u on u.id = a.staff_id ${where}`,
      params,
    ),
  ]);
  return { items: rows.rows, total: total.rows[0]?.n ?? 0 };
}
