import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';

/** The wallet's SQL on withdrawals (`withdrawals`, and what their checks read). */
type Db = pg.Pool | Tx;

/** The figures a new withdrawal's review is decided on (amounts exact decimals, trimmed). */
export interface ReviewFiguresRow {
  /** The limit of one withdrawal at the user's level; null when none is set. */
  per_withdrawal: string | null;
  /** The limit of 24 hours at the user's level; null when none is set. */
  per_day: string | null;
  /** What the user withdrew of the currency in the last 24 hours (returns of the travel rule aside). */
  day_total: string;
  /** Whether the saved address was activated within the new-beneficiary window (false when the window is 0). */
  new_beneficiary: boolean;
  /** Credited deposits of the currency within the pass-through window ('0' when the window is 0). */
  recent_deposits: string;
  /** Withdrawals of the currency within the pass-through window. */
  recent_withdrawals: string;
  /** Whether the user is staff (null for an unknown user). */
  staff: boolean | null;
}

/** What the review of a withdrawal looks at. */
export interface ReviewFiguresInput {
  userId: number;
  currency: string;
  level: number;
  beneficiaryId: number | null;
  newBeneficiaryHours: number;
  passThroughMinutes: number;
}

/** The limits, totals and flags a new withdrawal's review decides on, read in one statement. */
export async function reviewFigures(db: Db, w: ReviewFiguresInput): Promise<ReviewFiguresRow> {
  const row = (
    await db.query<ReviewFiguresRow>(
      `with lim as (
         select trim_scale(per_withdrawal)::text as per_withdrawal, trim_scale(per_day)::text as per_day
         from withdraw_limits where currency_id = $2 and level <= $3 order by level desc limit 1)
       select (select per_withdrawal from lim), (select per_day from lim),
         (select coalesce(trim_scale(sum(amount)), 0)::text from withdrawals
           where user_id = $1 and currency_id = $2 and created_at > now() - interval '24 hours'
             and state not in ('rejected', 'canceled', 'failed') and travel_rule_return_of is null) as day_total,
         $5::int > 0 and exists (select 1 from beneficiaries where id = $4
           and activated_at > now() - make_interval(hours => $5::int)) as new_beneficiary,
         case when $6::int > 0 then (select coalesce(trim_scale(sum(amount)), 0)::text from deposits
           where user_id = $1 and currency_id = $2 and credited_at > now() - make_interval(mins => $6::int))
         else '0' end as recent_deposits,
         (select coalesce(trim_scale(sum(amount)), 0)::text from withdrawals
           where user_id = $1 and currency_id = $2 and created_at > now() - make_interval(mins => $6::int)
             and state not in ('rejected', 'canceled', 'failed') and travel_rule_return_of is null) as recent_withdrawals,
         (select role <> 'member' from users where id = $1) as staff`,
      [w.userId, w.currency, w.level, w.beneficiaryId, w.newBeneficiaryHours, w.passThroughMinutes],
    )
  ).rows[0];
  if (!row) throw new Error(`the review figures of user ${w.userId} returned no row`);
  return row;
}

/**
 * An errored withdrawal was sent after all: it follows `txid` to confirmation.
 * @returns whether it was errored and unresolved (and so changed).
 */
export async function resolveErroredAsSent(db: Db, id: number, txid: string): Promise<boolean> {
  const updated = await db.query(
    `update withdrawals set state = 'confirming', txid = $2, error = null, updated_at = now()
           where id = $1 and state = 'errored' and resolution is null`,
    [id, txid],
  );
  return updated.rowCount === 1;
}

/**
 * An errored withdrawal failed: marked for the processor to release its funds.
 * @returns whether it was errored (and so marked).
 */
export async function resolveErroredAsFailed(db: Db, id: number): Promise<boolean> {
  const updated = await db.query(
    `update withdrawals set resolution = 'failed' where id = $1 and state = 'errored'`,
    [id],
  );
  return updated.rowCount === 1;
}

/** An errored withdrawal (broadcast outcome unknown) as the command line lists it. */
export interface ErroredWithdrawalRow {
  /** bigint, as text. */
  id: string;
  email: string;
  currency_id: string;
  blockchain_key: string;
  /** Exact decimal, trimmed. */
  amount: string;
  rid: string;
  error: string | null;
  updated_at: Date;
}

/** The errored withdrawals, oldest first, with their owner's email. */
export async function erroredWithdrawals(db: Db): Promise<ErroredWithdrawalRow[]> {
  return (
    await db.query<ErroredWithdrawalRow>(
      `select w.id, u.email, w.currency_id, w.blockchain_key, trim_scale(w.amount)::text as amount, w.rid, w.error, w.updated_at
       from withdrawals w join users u on u.id = w.user_id where w.state = 'errored' order by w.id`,
    )
  ).rows;
}
