import type { AdminWithdrawalEntity } from '@exchange/shared';
import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';
import { isoSql } from '../identity/users-repository.ts';

/** The SQL of the console's withdrawal queue: the withdrawals as staff see them, and their review. */

type Db = pg.Pool | Tx;

/** Whose a withdrawal is: the sender's user id, and the recipient's for a transfer inside the exchange. */
export interface WithdrawalParties {
  user_id: string;
  internal_user_id: string | null;
}

const SELECT = `select w.id::int, u.uid, u.email, u.level, w.currency_id as currency, w.blockchain_key,
  trim_scale(w.amount)::text as amount, trim_scale(w.fee)::text as fee, w.rid, w.state,
  w.internal_user_id is not null as internal, i.uid as recipient_uid,
  coalesce(w.review_reasons, '{}') as review_reasons, w.error, w.note,
  b.name as beneficiary, ${isoSql('b.activated_at')} as beneficiary_activated_at, r.email as reviewed_by,
  ${isoSql('w.created_at')} as created_at
  from withdrawals w join users u on u.id = w.user_id left join users i on i.id = w.internal_user_id
  left join beneficiaries b on b.id = w.beneficiary_id left join users r on r.id = w.reviewed_by`;

/**
 * A page of the withdrawals in one state (null: every one, newest first; one state: oldest first, the order the
 * queue is worked in), with the number of them.
 */
export async function withdrawalPage(
  db: pg.Pool,
  state: string | null,
  limit: number,
  offset: number,
): Promise<{ items: AdminWithdrawalEntity[]; total: number }> {
  const where = `where ($1::text is null or w.state = $1)`;
  const order = state ? 'w.id' : 'w.id desc';
  const [rows, count] = await Promise.all([
    db.query<AdminWithdrawalEntity>(`${SELECT} ${where} order by ${order} limit $2 offset $3`, [
      state,
      limit,
      offset,
    ]),
    db.query<{ total: number }>(`select count(*)::int as total from withdrawals w ${where}`, [state]),
  ]);
  return { items: rows.rows, total: count.rows[0]?.total ?? 0 };
}

/** One withdrawal as the console shows it, or undefined. */
export async function adminWithdrawal(db: Db, id: number): Promise<AdminWithdrawalEntity | undefined> {
  return (await db.query<AdminWithdrawalEntity>(`${SELECT} where w.id = $1`, [id])).rows[0];
}

/** A withdrawal waiting for review, locked until the transaction ends, or undefined (none, or decided). */
export async function lockUnderReview(
  tx: Tx,
  id: number,
): Promise<(WithdrawalParties & { review_reasons: string[] | null }) | undefined> {
  return (
    await tx.query<WithdrawalParties & { review_reasons: string[] | null }>(
      `select user_id, internal_user_id, review_reasons from withdrawals
       where id = $1 and state = 'under_review' for update`,
      [id],
    )
  ).rows[0];
}

/**
 * Records a review: the new state, the note the user reads (or null), who reviewed, and when (the app's clock). The
 * database's refusal to approve a withdrawal suspended for a report (migration 0047) measures the suspension's end
 * against that time, which this transaction tells it (`exchange.now`, migration 0052).
 */
export async function markReviewed(
  tx: Tx,
  id: number,
  review: { state: 'accepted' | 'rejected'; note: string | null; reviewedBy: string; at: Date },
): Promise<void> {
  await tx.query(`select set_config('exchange.now', $1, true)`, [review.at.toISOString()]);
  await tx.query(
    `update withdrawals set state = $2, note = $3, reviewed_by = $4, reviewed_at = $5, updated_at = now()
     where id = $1`,
    [id, review.state, review.note, review.reviewedBy, review.at],
  );
}

/** Whose the withdrawal is, or undefined when there is none. */
export async function withdrawalParties(db: Db, id: number): Promise<WithdrawalParties | undefined> {
  return (
    await db.query<WithdrawalParties>('select user_id, internal_user_id from withdrawals where id = $1', [id])
  ).rows[0];
}
