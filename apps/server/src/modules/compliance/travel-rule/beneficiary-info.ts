import {
  type CreateBeneficiaryInput,
  type Hosting,
  TRAVEL_RULE_ERRORS,
  type TravelRuleProvider,
} from '@exchange/shared';
import { invalid } from '../../../http/errors.ts';
import { DEFAULT_TRAVEL_RULE, type TravelRuleConfig } from './config.ts';

/** The beneficiary information of a saved address, checked against the directory. */
export interface BeneficiaryInfo {
  beneficiaryName: string | null;
  hosting: Hosting | null;
  provider: TravelRuleProvider | null;
}

/**
 * What a new saved address declares about its beneficiary. Everything is optional on the wire (older clients send
 * none of it), but what is sent must be consistent: a provider only from the directory and only for a hosted
 * address; a provider named without `hosting` means a hosted address.
 * @throws 422 `account.beneficiary.missing_provider`, `account.beneficiary.invalid_provider`.
 */
export function resolveBeneficiaryInfo(
  config: Pick<TravelRuleConfig, 'providers'> | undefined,
  input: Pick<CreateBeneficiaryInput, 'beneficiary_name' | 'hosting' | 'provider_id'>,
): BeneficiaryInfo {
  const providers = (config ?? DEFAULT_TRAVEL_RULE).providers;
  const providerId = input.provider_id || undefined;
  const hosting = input.hosting ?? (providerId ? 'provider' : null);
  let provider: TravelRuleProvider | null = null;
  if (hosting === 'provider') {
    if (!providerId) throw invalid(TRAVEL_RULE_ERRORS.providerRequired);
    provider = providers.find((p) => p.id === providerId) ?? null;
    if (!provider) throw invalid(TRAVEL_RULE_ERRORS.providerInvalid);
  } else if (providerId) {
    throw invalid(TRAVEL_RULE_ERRORS.providerInvalid);
  }
  return { beneficiaryName: input.beneficiary_name || null, hosting, provider };
}
