import {
  ADMIN_WITHDRAW_ERRORS,
  type AdminWithdrawalEntity,
  type ResolveWithdrawalInput,
} from '@exchange/shared';
import { withTransaction } from '../../db/pool.ts';
import { AppError } from '../../http/errors.ts';
import { isoSql } from '../identity/users-repository.ts';
import { resolveErrored } from '../wallet/withdraw-review.ts';
import { releaseHold, settleInternal, type WithdrawDeps } from '../wallet/withdrawals.ts';
import { refuseOwnAccount, type Staff } from './access.ts';
import { recordStaffAction } from './trail.ts';

const invalid = (code: string) => new AppError(422, [code]);

const SELECT = `select w.id::int, u.uid, u.email, u.level, w.currency_id as currency, w.blockchain_key,
  trim_scale(w.amount)::text as amount, trim_scale(w.fee)::text as fee, w.rid, w.state,
  w.internal_user_id is not null as internal, i.uid as recipient_uid,
  coalesce(w.review_reasons, '{}') as review_reasons, w.error, w.note,
  b.name as beneficiary, ${isoSql('b.activated_at')} as beneficiary_activated_at, r.email as reviewed_by,
  ${isoSql('w.created_at')} as created_at
  from withdrawals w join users u on u.id = w.user_id left join users i on i.id = w.internal_user_id
  left join beneficiaries b on b.id = w.beneficiary_id left join users r on r.id = w.reviewed_by`;

/** Withdrawals in one state (`all`: every one), oldest first: the queue is worked in order of arrival. */
export async function listWithdrawals(
  db: WithdrawDeps['db'],
  q: { state: 'under_review' | 'errored' | 'all'; page: number; limit: number },
): Promise<{ items: AdminWithdrawalEntity[]; total: number }> {
  const state = q.state === 'all' ? null : q.state;
  const where = `where ($1::text is null or w.state = $1)`;
  const order = state ? 'w.id' : 'w.id desc';
  const [rows, count] = await Promise.all([
    db.query(`${SELECT} ${where} order by ${order} limit $2 offset $3`, [
      state,
      q.limit,
      (q.page - 1) * q.limit,
    ]),
    db.query(`select count(*)::int as total from withdrawals w ${where}`, [state]),
  ]);
  return { items: rows.rows, total: count.rows[0].total };
}

async function withdrawalEntity(db: WithdrawDeps['db'], id: number): Promise<AdminWithdrawalEntity> {
  return (await db.query(`${SELECT} where w.id = $1`, [id])).rows[0];
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
    const current = (
      await tx.query(
        `select user_id, internal_user_id, review_reasons from withdrawals
         where id = $1 and state = 'under_review' for update`,
        [id],
      )
    ).rows[0];
    if (!current) throw invalid(ADMIN_WITHDRAW_ERRORS.notUnderReview);
    refuseOwnAccount(staff, current.user_id, current.internal_user_id);
    const state = approve ? 'accepted' : 'rejected';
    await tx.query(
      `update withdrawals set state = $2, note = $3, reviewed_by = $4, reviewed_at = now(), updated_at = now()
       where id = $1`,
      [id, state, approve ? null : (reason ?? null), staff.user.id],
    );
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
    return { userId: Number(current.user_id), recipient: current.internal_user_id as string | null };
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
    const current = (await tx.query('select user_id, internal_user_id from withdrawals where id = $1', [id]))
      .rows[0];
    if (current) refuseOwnAccount(staff, current.user_id, current.internal_user_id);
    if (!(await resolveErrored(tx, id, input))) throw invalid(ADMIN_WITHDRAW_ERRORS.notErrored);
    await recordStaffAction(tx, staff, 'withdrawal.resolve', `withdrawal:${id}`, {
      before: { state: 'errored' },
      after: input,
    });
  });
  return withdrawalEntity(deps.db, id);
}
