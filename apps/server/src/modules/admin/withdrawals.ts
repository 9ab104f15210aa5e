import {
  ADMIN_WITHDRAW_ERRORS,
  type AdminWithdrawalEntity,
  type ResolveWithdrawalInput,
} from '@exchange/shared';
import { dateOf } from '../../clock.ts';
import { withTransaction } from '../../db/pool.ts';
import { AppError } from '../../http/errors.ts';
import { resolveErrored } from '../wallet/withdraw-review.ts';
import { releaseHold, settleInternal, type WithdrawDeps } from '../wallet/withdrawals.ts';
import { refuseOwnAccount, type Staff } from './access.ts';
import { recordStaffAction } from './trail.ts';
import {
  adminWithdrawal,
  lockUnderReview,
  markReviewed,
  withdrawalPage,
  withdrawalParties,
} from './withdrawals-repository.ts';

const invalid = (code: string) => new AppError(422, [code]);

/** Withdrawals in one state (`all`: every one), oldest first: the queue is worked in order of arrival. */
export function listWithdrawals(
  db: WithdrawDeps['db'],
  q: { state: 'under_review' | 'errored' | 'all'; page: number; limit: number },
): Promise<{ items: AdminWithdrawalEntity[]; total: number }> {
  return withdrawalPage(db, q.state === 'all' ? null : q.state, q.limit, (q.page - 1) * q.limit);
}

/** A withdrawal just decided or resolved (it was found, and withdrawals are never deleted). */
async function withdrawalEntity(db: WithdrawDeps['db'], id: number): Promise<AdminWithdrawalEntity> {
  const withdrawal = await adminWithdrawal(db, id);
  if (!withdrawal) throw new Error(`withdrawal ${id} is gone`);
  return withdrawal;
}

/**
 * Decides a withdrawal waiting for review. Approved, it goes on as any accepted one: an external one is broadcast
 * by the processor (once: it is marked `processing` first), an internal one settles at once. Rejected, its held
 * funds go back to the user through the core (once: one command id per withdrawal) and the reason is shown to the
 * user. Two staff deciding at the same moment: the row lock lets one win and the other gets
 * `admin.withdrawal.not_under_review`. Staff cannot decide a withdrawal from or (inside the exchange) to their own
 * account (403 `admin.user.own_account`; the database refuses it too).
 */
export async function decideWithdrawal(
  deps: WithdrawDeps,
  staff: Staff,
  id: number,
  approve: boolean,
  reason: string | undefined,
): Promise<AdminWithdrawalEntity> {
  const decided = await withTransaction(deps.db, async (tx) => {
    const current = await lockUnderReview(tx, id);
    if (!current) throw invalid(ADMIN_WITHDRAW_ERRORS.notUnderReview);
    refuseOwnAccount(staff, current.user_id, current.internal_user_id);
    const state = approve ? 'accepted' : 'rejected';
    await markReviewed(tx, id, {
      state,
      note: approve ? null : (reason ?? null),
      reviewedBy: staff.user.id,
      at: dateOf(deps.clock),
    });
    await recordStaffAction(
      tx,
      staff,
      approve ? 'withdrawal.approve' : 'withdrawal.reject',
      `withdrawal:${id}`,
      {
        before: { state: 'under_review', review_reasons: current.review_reasons },
        after: { state, reason: reason ?? null },
      },
    );
    return { userId: Number(current.user_id), recipient: current.internal_user_id };
  });
  // After the commit: should this process stop here, the processor finishes the step (see finishDecided).
  if (!approve) await releaseHold(deps, id);
  else if (decided.recipient !== null) await settleInternal(deps, id, Number(decided.recipient));
  deps.onChange(decided.userId, id);
  return withdrawalEntity(deps.db, id);
}

/**
 * Resolves an errored withdrawal after checking the chain: `sent` with the transaction found there, or `failed`,
 * after which the processor gives the funds back once. Not one from or to the staff member's own account (403
 * `admin.user.own_account`): `failed` gives money back.
 */
export async function resolveWithdrawal(
  deps: WithdrawDeps,
  staff: Staff,
  id: number,
  input: ResolveWithdrawalInput,
): Promise<AdminWithdrawalEntity> {
  await withTransaction(deps.db, async (tx) => {
    const current = await withdrawalParties(tx, id);
    if (current) refuseOwnAccount(staff, current.user_id, current.internal_user_id);
    if (!(await resolveErrored(tx, id, input))) throw invalid(ADMIN_WITHDRAW_ERRORS.notErrored);
    await recordStaffAction(tx, staff, 'withdrawal.resolve', `withdrawal:${id}`, {
      before: { state: 'errored' },
      after: input,
    });
  });
  return withdrawalEntity(deps.db, id);
}
