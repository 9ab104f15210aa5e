import type { StaffActionEntity } from '@exchange/shared';
import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';
import { isoSql } from '../identity/users-repository.ts';
import type { Staff } from './access.ts';

/**
 * Appends a staff action to the trail (in the caller's transaction when given, so the change and its record
 * land together). The table refuses updates and deletes.
 */
export async function recordStaffAction(
  db: pg.Pool | Tx,
  staff: Staff,
  action: string,
  target: string | null,
  change: { before?: unknown; after?: unknown } = {},
): Promise<void> {
  await db.query(
    `insert into staff_actions (staff_id, role, action, target, before, after, ip)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [
      staff.user.id,
      staff.user.role,
      action,
      target,
      change.before === undefined ? null : JSON.stringify(change.before),
      change.after === undefined ? null : JSON.stringify(change.after),
      staff.ip,
    ],
  );
}

/** The trail, newest first, filtered by staff email and action; with the total for paging. */
export async function listStaffActions(
  db: pg.Pool,
  q: { staff?: string; action?: string; page: number; limit: number },
): Promise<{ items: StaffActionEntity[]; total: number }> {
  const where = `where ($1::text is null or lower(u.email) = lower($1)) and ($2::text is null or a.action = $2)`;
  const params = [q.staff ?? null, q.action ?? null];
  const [rows, total] = await Promise.all([
    db.query(
      `select a.id::int, u.email as staff, a.role, a.action, a.target, a.before, a.after, a.ip,
         ${isoSql('a.created_at')} as created_at
       from staff_actions a join users u on u.id = a.staff_id ${where}
       order by a.id desc limit $3 offset $4`,
      [...params, q.limit, (q.page - 1) * q.limit],
    ),
    db.query(
      `select count(*)::int as n from staff_actions a join users u on u.id = a.staff_id ${where}`,
      params,
    ),
  ]);
  return { items: rows.rows, total: total.rows[0].n };
}
