import { ADMIN_ERRORS, STAFF_ROLES, STEP_UP_MINUTES, type StaffPermission, staffMay } from '@exchange/shared';
import type { FastifyRequest } from 'fastify';
import type pg from 'pg';
import { type Clock, dateOf } from '../../clock.ts';
import { authUser } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import type { UserRecord } from '../identity/users-repository.ts';
import { setStepUp, stepUpEnd, stepUpFresh } from './staff-repository.ts';

/** The staff member behind an admin request, with the session the step-up is kept on. */
export interface Staff {
  user: UserRecord;
  sessionId: string;
  ip: string;
}

/**
 * SQLSTATE of the database's own refusal of a staff decision on the staff member's own account (migration 0022):
 * the admin API answers it as 403 `admin.user.own_account`, like the service's own check.
 */
export const OWN_ACCOUNT_SQLSTATE = 'XCS01';

/**
 * Refuses (403 `admin.user.own_account`) an action that concerns the acting staff member's own customer account:
 * `subjects` are the user ids (or uids) the action concerns. A staff account is a user account like any other, so
 * staff never decide on their own money, withdrawals, identity, card or access. The database refuses it too.
 */
export function refuseOwnAccount(staff: Staff, ...subjects: unknown[]): void {
  const own = subjects.some(
    (s) => s !== null && s !== undefined && (String(s) === staff.user.id || s === staff.user.uid),
  );
  if (own) throw new AppError(403, [ADMIN_ERRORS.ownAccount]);
}

/** True for a staff role (customers are `member`). */
export function isStaffRole(role: string): boolean {
  return (STAFF_ROLES as readonly string[]).includes(role);
}

/**
 * The checks every admin route makes on the server, after the session check: a staff role holding
 * `permission` (403 `admin.forbidden` for customers and other roles), two-factor on (403 `admin.2fa_required`),
 * a browser session (the console; API keys are refused), and unless `stepUp` is false an authenticator code
 * entered in the last {@link STEP_UP_MINUTES} minutes (403 `admin.step_up_required`).
 */
export async function requireStaff(
  deps: StepUpDeps,
  request: FastifyRequest,
  permission: StaffPermission | null,
  stepUp = true,
): Promise<Staff> {
  const user = authUser(request);
  const sessionId = request.auth?.sessionId;
  if (!isStaffRole(user.role) || (permission && !staffMay(user.role, permission)) || !sessionId)
    throw new AppError(403, [ADMIN_ERRORS.forbidden]);
  if (!user.otp) throw new AppError(403, [ADMIN_ERRORS.twoFactorRequired]);
  if (stepUp && !(await steppedUp(deps, sessionId))) throw new AppError(403, [ADMIN_ERRORS.stepUpRequired]);
  return { user, sessionId, ip: request.ip };
}

/** Where the step-up is kept (the session's row) and the clock its window is measured on. */
export interface StepUpDeps {
  db: pg.Pool;
  clock: Clock;
}

async function steppedUp({ db, clock }: StepUpDeps, sessionId: string): Promise<boolean> {
  return stepUpFresh(db, sessionId, STEP_UP_MINUTES, dateOf(clock));
}

/** Until when the session's step-up lets staff act (ISO), or null. */
export async function stepUpUntil({ db, clock }: StepUpDeps, sessionId: string): Promise<string | null> {
  const until = await stepUpEnd(db, sessionId, STEP_UP_MINUTES, dateOf(clock));
  return until ? until.toISOString() : null;
}

/** Records a step-up on the staff member's session now (the next five minutes need no further code). */
export async function recordStepUp({ db, clock }: StepUpDeps, sessionId: string): Promise<void> {
  await setStepUp(db, sessionId, dateOf(clock));
}
