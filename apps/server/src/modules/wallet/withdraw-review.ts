import { toUnits, WITHDRAW_REVIEW_REASONS, type WithdrawReviewReason } from '@exchange/shared';
import type pg from 'pg';
import type { WithdrawReviewRules } from '../../config.ts';
import type { Tx } from '../../db/pool.ts';

/** The withdrawal being checked: its row is already written (and so counts in the user's 24-hour total). */
interface Candidate {
  userId: number;
  level: number;
  currency: string;
  precision: number;
  amount: bigint;
  /** The saved address it goes to; null for a transfer to a user named by email or phone. */
  beneficiaryId: number | null;
}

/**
 * Why a new withdrawal must wait for staff instead of broadcasting; empty when it may go. Checked after its row is
 * written, so of two withdrawals racing past the daily limit the later check sees both (neither slips through).
 */
export async function reviewReasons(
  db: pg.Pool,
  rules: WithdrawReviewRules,
  w: Candidate,
): Promise<WithdrawReviewReason[]> {
  const row = (
    await db.query(
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
      [w.userId, w.currency, w.level, w.beneficiaryId, rules.newBeneficiaryHours, rules.passThroughMinutes],
    )
  ).rows[0];
  const units = (text: string) => toUnits(text, w.precision);
  const reasons: WithdrawReviewReason[] = [];
  if (row.per_withdrawal !== null && w.amount > units(row.per_withdrawal))
    reasons.push(WITHDRAW_REVIEW_REASONS.perWithdrawal);
  if (row.per_day !== null && units(row.day_total) > units(row.per_day))
    reasons.push(WITHDRAW_REVIEW_REASONS.perDay);
  if (row.new_beneficiary) reasons.push(WITHDRAW_REVIEW_REASONS.newBeneficiary);
  // Half or more of what just arrived leaves again (in one withdrawal or several): the account may be a mule.
  const deposited = units(row.recent_deposits);
  if (deposited > 0n && 2n * units(row.recent_withdrawals) >= deposited)
    reasons.push(WITHDRAW_REVIEW_REASONS.passThrough);
  // Staff can move the limits and rules above (for their whole level), so their own withdrawals always wait for
  // a colleague's decision instead of depending on settings they may have just changed.
  if (row.staff) reasons.push(WITHDRAW_REVIEW_REASONS.staffAccount);
  return reasons;
}

/**
 * An operator's decision on an errored withdrawal (broadcast outcome unknown), after checking the chain: `sent`
 * follows the transaction to confirmation; `failed` marks it for the processor, which releases the funds once
 * (saying it again changes nothing). False when the withdrawal is not (or no longer) errored, or `sent` comes
 * after `failed`.
 */
export async function resolveErrored(
  db: pg.Pool | Tx,
  id: number,
  decision: { decision: 'sent'; txid: string } | { decision: 'failed' },
): Promise<boolean> {
  const updated =
    decision.decision === 'sent'
      ? await db.query(
          `update withdrawals set state = 'confirming', txid = $2, error = null, updated_at = now()
           where id = $1 and state = 'errored' and resolution is null`,
          [id, decision.txid],
        )
      : await db.query(`update withdrawals set resolution = 'failed' where id = $1 and state = 'errored'`, [
          id,
        ]);
  return updated.rowCount === 1;
}
