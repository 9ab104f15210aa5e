import { type CompatProfileInput, ERRORS } from '@exchange/shared';
import { invalid } from '../../http/errors.ts';
import {
  insertSubmittedProfile,
  kycLevelLabels,
  latestProfile,
  type SubmittedProfile,
  submitLatestProfile,
} from './profile-repository.ts';
import type { IdentityDeps } from './registration.ts';
import type { UserRecord } from './users-repository.ts';

/** Label values of `basic-kyc-level` that are shown as something other than Pending (docs/kyc.md#labels). */
const KYC_SHOWN_NOT_PENDING = new Set(['verified', 'in_review', 'onhold', 'rejected', 'initiated', 'retry']);

/** True while the KYC label maps to Pending: the only time the profile may be edited. */
export async function profileEditable(deps: IdentityDeps, userId: string): Promise<boolean> {
  const labels = await kycLevelLabels(deps.db, userId);
  return !labels.some((r) => KYC_SHOWN_NOT_PENDING.has(r.value));
}

/**
 * Saves the profile (gender, dob, address, postcode, city, country; gender may be missing with BASEAPP_COMPAT,
 * whose schema the route picks). Refused with
 * `resource.profile.doesnt_exist_or_not_editable` once identity verification has moved past Pending.
 */
export async function saveProfile(deps: IdentityDeps, user: UserRecord, input: CompatProfileInput) {
  if (!(await profileEditable(deps, user.id))) throw invalid(ERRORS.profileNotEditable);
  const profile: SubmittedProfile = {
    gender: input.gender ?? null,
    dob: input.dob,
    address: input.address.trim(),
    postcode: input.postcode.toUpperCase(),
    city: input.city.trim(),
    country: input.country,
    firstName: input.first_name?.trim() || null,
    lastName: input.last_name?.trim() || null,
  };
  if (!(await submitLatestProfile(deps.db, user.id, profile)))
    await insertSubmittedProfile(deps.db, user.id, profile);
  return latestProfile(deps.db, user.id);
}
