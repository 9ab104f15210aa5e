import { type AdminSanctionsHit, type DecideSanctionsHitInput, SANCTIONS_ERRORS } from '@exchange/shared';
import type pg from 'pg';
import { withTransaction } from '../../../db/pool.ts';
import { AppError } from '../../../http/errors.ts';
import { refuseOwnAccount, type Staff } from '../../admin/access.ts';
import { recordStaffAction } from '../../admin/trail.ts';
import { hitById, hitsIn, lockHit, recordHitDecision } from './hits-repository.ts';

/** The screening hits in one state (or all), newest first. */
export async function listSanctionsHits(
  db: pg.Pool,
  state: 'open' | 'false_positive' | 'confirmed' | 'all',
): Promise<AdminSanctionsHit[]> {
  return hitsIn(db, state);
}

/**
 * Decides an open hit: a false positive (the customer's withdrawals open again unless another hit holds them) or
 * confirmed (they stay frozen). The decision, its reason and who made it are kept on the hit and in the staff
 * trail (target: the customer's uid). Never on the staff member's own account (403 `admin.user.own_account`);
 * 404 for an unknown hit, 422 for one decided already.
 */
export async function decideSanctionsHit(
  db: pg.Pool,
  staff: Staff,
  id: number,
  input: DecideSanctionsHitInput,
  /** Now on the app's clock: the decision's time. */
  now: Date,
): Promise<AdminSanctionsHit> {
  return withTransaction(db, async (tx) => {
    const hit = await lockHit(tx, id);
    if (!hit) throw new AppError(404, [SANCTIONS_ERRORS.hitNotFound]);
    refuseOwnAccount(staff, String(hit.user_id));
    if (hit.state !== 'open') throw new AppError(422, [SANCTIONS_ERRORS.alreadyDecided]);
    await recordHitDecision(tx, id, input.decision, staff.user.id, input.reason, now);
    await recordStaffAction(tx, staff, 'sanctions.hit.decide', hit.uid, {
      before: { hit: id, state: 'open' },
      after: { hit: id, state: input.decision, reason: input.reason },
    });
    const decided = await hitById(tx, id);
    // Locked and updated in this transaction, so it exists.
    if (!decided) throw new AppError(404, [SANCTIONS_ERRORS.hitNotFound]);
    return decided;
  });
}
