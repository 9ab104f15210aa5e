import { WITHDRAW_REVIEW_REASONS, type WithdrawReviewReason } from '@exchange/shared';
import type pg from 'pg';
import type { TravelRulePort } from '../../../adapters/travel-rule/port.ts';
import type { TravelRuleConfig } from './config.ts';
import { recordDeliveryAnswer } from './outgoing-repository.ts';
import type { TravelRuleRecord } from './withdrawal-check.ts';

/**
 * Sends a just-recorded withdrawal's IVMS 101 message to the beneficiary's provider, records its answer on the
 * withdrawal, and says why the withdrawal must wait for review: the provider refused the data or did not answer
 * (art. 14 and 17 of Regulation (EU) 2023/1113), or the saved address declares nothing and the operator holds
 * such withdrawals (TRAVEL_RULE_HOLD_UNDECLARED). Staff then decide in the console's withdrawal review.
 */
export async function deliverTravelRule(
  deps: { db: pg.Pool; port: TravelRulePort | undefined; config: Pick<TravelRuleConfig, 'holdUndeclared'> },
  withdrawalId: number,
  w: {
    record: TravelRuleRecord | undefined;
    currency: string;
    network: string;
    amount: string;
    address: string;
  },
): Promise<WithdrawReviewReason[]> {
  const { record } = w;
  if (!record) return [];
  if (record.undeclared)
    return deps.config.holdUndeclared ? [WITHDRAW_REVIEW_REASONS.travelRuleUndeclared] : [];
  if (record.status !== 'pending' || !record.providerId) return [];
  const answer = deps.port
    ? await deps.port.send({
        reference: `W${withdrawalId}`,
        providerId: record.providerId,
        asset: w.currency,
        network: w.network,
        amount: w.amount,
        address: w.address,
        payload: record.payload,
      })
    : ({ outcome: 'unreachable', detail: 'no travel-rule port' } as const);
  const status =
    answer.outcome === 'accepted' ? 'sent' : answer.outcome === 'refused' ? 'refused' : 'unreachable';
  await recordDeliveryAnswer(deps.db, withdrawalId, status, answer);
  if (answer.outcome === 'refused') return [WITHDRAW_REVIEW_REASONS.travelRuleRefused];
  if (answer.outcome === 'unreachable') return [WITHDRAW_REVIEW_REASONS.travelRuleUnreachable];
  return [];
}
