import { formatUnits, TRAVEL_RULE_ERRORS } from '@exchange/shared';
import type pg from 'pg';
import type { Core } from '../../../core/index.ts';
import { AppError } from '../../../http/errors.ts';
import type { UserRecord } from '../../identity/users-repository.ts';
import type { TravelRuleConfig } from './config.ts';
import { buildPayload, type IvmsPayload, originatorPerson } from './ivms.ts';
import { eurCents } from './valuation.ts';

/**
 * Where a withdrawal stands under the travel rule: `not_required` (to another user here), `self_hosted` (no
 * provider to send to), `missing` (the saved address says nothing about its beneficiary, or the originator has
 * no name), `pending` (to be sent to the beneficiary's provider); then `sent`, `refused` or `unreachable`.
 */
export type TravelRuleStatus = 'not_required' | 'self_hosted' | 'missing' | 'pending';

/** What a withdrawal records about the travel rule. */
export interface TravelRuleRecord {
  payload: IvmsPayload;
  status: TravelRuleStatus;
  /** The provider holding the address (directory id), to send the payload to; null for none. */
  providerId: string | null;
  /** The saved address declared nothing about its beneficiary (saved by an older client). */
  undeclared: boolean;
}

/** The saved address's columns the check reads. */
export interface TravelRuleBeneficiary {
  address: string;
  beneficiary_name: string | null;
  hosting: 'provider' | 'self_hosted' | null;
  provider_id: string | null;
  provider_name: string | null;
  provider_lei: string | null;
  ownership_proved_at: Date | null;
}

/**
 * The travel-rule information of a withdrawal about to be placed, or a refusal: above the threshold
 * (TRAVEL_RULE_SELF_HOSTED_EUR, valued exactly in EUR cents), a self-hosted address must have been proved the
 * customer's own by a signed message first (art. 16(2) of Regulation (EU) 2023/1113).
 * @throws 422 `account.withdraw.address_unverified` with `threshold_eur` (e.g. "1000.00") next to `errors`.
 */
export async function travelRuleForWithdrawal(
  deps: { db: pg.Pool; core: Core; config: TravelRuleConfig },
  user: UserRecord,
  w: { currency: string; amount: bigint; internal: boolean; beneficiary: TravelRuleBeneficiary },
): Promise<TravelRuleRecord> {
  const b = w.beneficiary;
  if (
    !w.internal &&
    b.hosting === 'self_hosted' &&
    b.ownership_proved_at === null &&
    eurCents(deps.core, w.currency, w.amount, deps.config.eurPerUsdt) > deps.config.selfHostedThresholdCents
  ) {
    throw new AppError(422, [TRAVEL_RULE_ERRORS.addressUnverified], {
      threshold_eur: formatUnits(deps.config.selfHostedThresholdCents, 2, 2),
    });
  }
  const originator = await originatorPerson(deps.db, user.id, user.uid);
  const payload = buildPayload(deps.config, originator.person, {
    address: b.address,
    beneficiaryName: b.beneficiary_name,
    provider:
      b.hosting === 'provider' && b.provider_name ? { name: b.provider_name, lei: b.provider_lei } : null,
  });
  // To a provider, the message always goes: the counterparty judges what is missing, and its refusal holds it.
  let status: TravelRuleStatus;
  if (w.internal) status = 'not_required';
  else if (b.hosting === 'provider') status = 'pending';
  else if (!originator.complete || !b.beneficiary_name || b.hosting === null) status = 'missing';
  else status = 'self_hosted';
  return {
    payload,
    status,
    providerId: !w.internal && b.hosting === 'provider' ? b.provider_id : null,
    undeclared: !w.internal && b.hosting === null,
  };
}
