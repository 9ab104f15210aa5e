import { toUnits, WITHDRAW_REVIEW_REASONS, type WithdrawReviewReason } from '@exchange/shared';
import type pg from 'pg';
import type { WithdrawReviewRules } from '../../config.ts';
import type { Tx } from '../../db/pool.ts';
import { resolveErroredAsFailed, resolveErroredAsSent, reviewFigures } from './withdrawals-repository.ts';

/** The withdrawal being checked: its row is already written (and so counts in the user's 24-hour total). */
interface Candidate {
  userId: number;
  level: number;
  currency: string;
  precision: number;
  amount: bigint;
  /** The saved address it goes to; null for a transfer to a user named by email or phone. */
  beneficiaryId: number | null;
  /** Now on the app's clock: the windows end here. */
  now: Date;
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
  const row = await reviewFigures(db, {
    userId: w.userId,
    currency: w.currency,
    level: w.level,
    beneficiaryId: w.beneficiaryId,
    newBeneficiaryHours: rules.newBeneficiaryHours,
    passThroughMinutes: rules.passThroughMinutes,
    now: w.now,
  });
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
  return decision.decision === 'sent'
    ? resolveErroredAsSent(db, id, decision.txid)
    : resolveErroredAsFailed(db, id);
}
