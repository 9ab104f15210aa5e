import { ADMIN_ERRORS, parseUnits } from '@exchange/shared';
import type pg from 'pg';
import type { Core } from '../../core/index.ts';
import { withTransaction } from '../../db/pool.ts';
import { AppError } from '../../http/errors.ts';
import { userIdOfUid } from '../identity/users-repository.ts';
import { applyAdjustment } from '../wallet/adjustments.ts';
import { refuseOwnAccount, type Staff } from './access.ts';
import {
  type AdjustmentEntity,
  adjustmentEntity,
  insertProposal,
  lockProposal,
  markDecided,
  staffAdjustments,
} from './adjustments-repository.ts';
import { currencyPrecision } from './markets-repository.ts';
import { recordStaffAction } from './trail.ts';

const invalid = (code: string) => new AppError(422, [code]);

/** Adjustments proposed by staff, newest first, optionally in one state. */
export function listAdjustments(db: pg.Pool, state: string | undefined): Promise<AdjustmentEntity[]> {
  return staffAdjustments(db, state ?? null);
}

/**
 * Proposes a credit (or, negative, a debit) of a user's balance. Nothing moves until a second staff member
 * approves it (four eyes). Staff cannot propose for their own account (403 `admin.user.own_account`).
 */
export async function proposeAdjustment(
  db: pg.Pool,
  staff: Staff,
  input: { uid: string; currency: string; amount: string; reason: string },
) {
  const precision = await currencyPrecision(db, input.currency);
  if (precision === undefined) throw invalid(ADMIN_ERRORS.adjustmentInvalidCurrency);
  const parsed = parseUnits(input.amount.replace(/^-/, ''), precision);
  if (!parsed.ok || parsed.units === 0n) throw invalid(ADMIN_ERRORS.adjustmentInvalidAmount);
  const userId = await userIdOfUid(db, input.uid);
  if (userId === undefined) throw new AppError(404, [ADMIN_ERRORS.userNotFound]);
  refuseOwnAccount(staff, userId);
  const id = await withTransaction(db, async (tx) => {
    const id = await insertProposal(tx, {
      userId,
      currency: input.currency,
      amount: input.amount,
      reason: input.reason,
      proposedBy: staff.user.id,
    });
    await recordStaffAction(tx, staff, 'adjustment.propose', `adjustment:${id}`, { after: input });
    return id;
  });
  return adjustmentEntity(db, id);
}

/**
 * Approves or rejects a proposal. The proposer can do neither with their own (four eyes), and no one decides an
 * adjustment of their own account, whoever proposed it (403 `admin.user.own_account`); the database refuses both
 * too. An approval makes it `pending` and applies it through the core at once, exactly once.
 */
export async function decideAdjustment(
  db: pg.Pool,
  core: Core,
  staff: Staff,
  id: number,
  approve: boolean,
  reason: string | undefined,
  /** Now on the app's clock: the decision's time. */
  now: Date,
) {
  const decided = await withTransaction(db, async (tx) => {
    const current = await lockProposal(tx, id);
    if (!current) throw invalid(ADMIN_ERRORS.adjustmentNotProposed);
    refuseOwnAccount(staff, current.user_id);
    if (String(current.proposed_by) === staff.user.id) throw invalid(ADMIN_ERRORS.adjustmentOwnProposal);
    const state = approve ? 'pending' : 'rejected';
    await markDecided(tx, id, state, staff.user.id, now);
    await recordStaffAction(
      tx,
      staff,
      approve ? 'adjustment.approve' : 'adjustment.reject',
      `adjustment:${id}`,
      {
        before: { state: 'proposed' },
        after: { state, ...(reason ? { reason } : {}) },
      },
    );
    return { ...current, approve };
  });
  if (decided.approve) await applyAdjustment(db, core, decided);
  return adjustmentEntity(db, id);
}
