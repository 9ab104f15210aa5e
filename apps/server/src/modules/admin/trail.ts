import type { StaffActionEntity } from '@exchange/shared';
import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';
import type { Staff } from './access.ts';
import { insertStaffAction, staffActionPage } from './trail-repository.ts';

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
  await insertStaffAction(db, {
    staffId: staff.user.id,
    role: staff.user.role,
    action,
    target,
    before: change.before === undefined ? null : JSON.stringify(change.before),
    after: change.after === undefined ? null : JSON.stringify(change.after),
    ip: staff.ip,
  });
}

/** The trail, newest first, filtered by staff email and action; with the total for paging. */
export function listStaffActions(
  db: pg.Pool,
  q: { staff?: string; action?: string; page: number; limit: number },
): Promise<{ items: StaffActionEntity[]; total: number }> {
  return staffActionPage(
    db,
    { staffEmail: q.staff ?? null, action: q.action ?? null },
    q.limit,
    (q.page - 1) * q.limit,
  );
}
