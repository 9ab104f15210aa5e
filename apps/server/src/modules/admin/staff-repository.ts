import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';

/** The SQL of the staff themselves: their roles (the CLI's `staff` commands) and the step-up on their session. */

type Db = pg.Pool | Tx;

/** A staff member as `staff list` prints them. */
export interface StaffMemberRow {
  email: string;
  role: string;
  otp: boolean;
}

/** True when the session's step-up is later than `minutes` before `at`. */
export async function stepUpFresh(db: Db, sessionId: string, minutes: number, at: Date): Promise<boolean> {
  const row = (
    await db.query<{ fresh: boolean | null }>(
      `select step_up_at > $3::timestamptz - make_interval(mins => $2) as fresh from sessions where id = $1`,
      [sessionId, minutes, at],
    )
  ).rows[0];
  return row?.fresh === true;
}

/** When the session's step-up made `minutes` before `at` or later runs out, or undefined (none, or stale). */
export async function stepUpEnd(
  db: Db,
  sessionId: string,
  minutes: number,
  at: Date,
): Promise<Date | undefined> {
  const row = (
    await db.query<{ until: Date }>(
      `select step_up_at + make_interval(mins => $2) as until from sessions
       where id = $1 and step_up_at > $3::timestamptz - make_interval(mins => $2)`,
      [sessionId, minutes, at],
    )
  ).rows[0];
  return row?.until;
}

/** Records a step-up on the session at `at`. */
export async function setStepUp(db: Db, sessionId: string, at: Date): Promise<void> {
  await db.query('update sessions set step_up_at = $2 where id = $1', [sessionId, at]);
}

/** Every user whose role is not `member`, by role then email. */
export async function staffMembers(db: Db): Promise<StaffMemberRow[]> {
  return (
    await db.query<StaffMemberRow>(
      `select email, role, otp from users where role <> 'member' order by role, email`,
    )
  ).rows;
}

/**
 * Gives the user with this email (any case) the role: whether their two-factor is on, or undefined when no user
 * has the email.
 */
export async function grantRole(db: Db, email: string, role: string): Promise<{ otp: boolean } | undefined> {
  return (
    await db.query<{ otp: boolean }>(
      `update users set role = $2, updated_at = now() where lower(email) = lower($1) returning otp`,
      [email, role],
    )
  ).rows[0];
}

/** Makes the user with this email (any case) a customer (`member`) again: false when no user has the email. */
export async function revokeRole(db: Db, email: string): Promise<boolean> {
  const updated = await db.query<{ id: string }>(
    `update users set role = 'member', updated_at = now() where lower(email) = lower($1) returning id`,
    [email],
  );
  return updated.rowCount !== 0;
}
