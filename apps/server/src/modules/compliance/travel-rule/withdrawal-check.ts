import { formatUnits, TRAVEL_RULE_ERRORS } from '@exchange/shared';
import type pg from 'pg';
import type { Core } from '../../../core/index.ts';
import { AppError } from '../../../http/errors.ts';
import type { UserRecord } from '../../identity/users-repository.ts';
import type { TravelRuleConfig } from './config.ts';
import { buildPayload, customerBeneficiary, type IvmsPayload, originatorPerson } from './ivms.ts';
import { eurCents } from './valuation.ts';

/**
 * Where a withdrawal stands under the travel rule: `not_required` (to another customer here: the record is kept,
 * nothing is sent), `self_hosted` (no
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

/** A saved address (or a payout row's address) that declares nothing about its beneficiary. */
export function undeclaredBeneficiary(address: string): TravelRuleBeneficiary {
  return {
    address,
    beneficiary_name: null,
    hosting: null,
    provider_id: null,
    provider_name: null,
    provider_lei: null,
    ownership_proved_at: null,
  };
}

/**
 * The record of a transfer between two customers here (by email, phone or deposit address, to a saved address
 * that is another customer's, or a payout row paying one): both are our verified customers, so the originator
 * and the beneficiary come from their profiles (art. 14(1)-(2) of Regulation (EU) 2023/1113), and both providers
 * are us. Nothing goes over the protocol (`not_required`).
 */
export async function travelRuleForInternal(
  deps: { db: pg.Pool; config: Pick<TravelRuleConfig, 'vasp'> },
  user: UserRecord,
  recipient: number,
): Promise<TravelRuleRecord> {
  const originator = await originatorPerson(deps.db, user.id, user.uid);
  const beneficiary = await customerBeneficiary(deps.db, recipient);
  const payload = buildPayload(deps.config, originator.person, {
    address: beneficiary.uid,
    beneficiaryName: null,
    person: beneficiary.person,
    provider: deps.config.vasp,
  });
  return { payload, status: 'not_required', providerId: null, undeclared: false };
}

/**
 * The travel-rule information of a withdrawal about to be placed, or a refusal: above the threshold
 * (TRAVEL_RULE_SELF_HOSTED_EUR, valued exactly in EUR cents), a self-hosted address must have been proved the
 * customer's own by a signed message first (art. 16(2) of Regulation (EU) 2023/1113). To another customer here
 * (`recipient`), see {@link travelRuleForInternal}.
 * @throws 422 `account.withdraw.address_unverified` with `threshold_eur` (e.g. "1000.00") next to `errors`.
 */
export async function travelRuleForWithdrawal(
  deps: { db: pg.Pool; core: Core; config: TravelRuleConfig },
  user: UserRecord,
  w: { currency: string; amount: bigint; recipient: number | null; beneficiary: TravelRuleBeneficiary },
): Promise<TravelRuleRecord> {
  if (w.recipient !== null) return travelRuleForInternal(deps, user, w.recipient);
  const b = w.beneficiary;
  if (
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
  if (b.hosting === 'provider') status = 'pending';
  else if (!originator.complete || !b.beneficiary_name || b.hosting === null) status = 'missing';
  else status = 'self_hosted';
  return {
    payload,
    status,
    providerId: b.hosting === 'provider' ? b.provider_id : null,
    undeclared: b.hosting === null,
  };
}
