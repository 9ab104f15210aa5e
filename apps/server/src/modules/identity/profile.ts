import { type CompatProfileInput, ERRORS } from '@exchange/shared';
import { invalid } from '../../http/errors.ts';
import type { IdentityDeps } from './registration.ts';
import type { UserRecord } from './users-repository.ts';

/** Label values of `basic-kyc-level` that are shown as something other than Pending (docs/kyc.md#labels). */
const KYC_SHOWN_NOT_PENDING = new Set(['verified', 'in_review', 'onhold', 'rejected', 'initiated', 'retry']);

/** True while the KYC label maps to Pending: the only time the profile may be edited. */
export async function profileEditable(deps: IdentityDeps, userId: string): Promise<boolean> {
  const label = await deps.db.query(
    `select value from labels where user_id = $1 and key = 'basic-kyc-level'`,
    [userId],
  );
  return !label.rows.some((r) => KYC_SHOWN_NOT_PENDING.has(r.value));
}

/**
 * Saves the profile (gender, dob, address, postcode, city, country; gender may be missing with BASEAPP_COMPAT,
 * whose schema the route picks). Refused with
 * `resource.profile.doesnt_exist_or_not_editable` once identity verification has moved past Pending.
 */
export async function saveProfile(deps: IdentityDeps, user: UserRecord, input: CompatProfileInput) {
  if (!(await profileEditable(deps, user.id))) throw invalid(ERRORS.profileNotEditable);
  const values = [
    user.id,
    input.gender ?? null,
    input.dob,
    input.address.trim(),
    input.postcode.toUpperCase(),
    input.city.trim(),
    input.country,
  ];
  const updated = await deps.db.query(
    `update profiles set gender = $2, dob = $3, address = $4, postcode = $5, city = $6, country = $7,
       first_name = coalesce($8, first_name), last_name = coalesce($9, last_name), state = 'submitted', updated_at = now()
     where id = (select max(id) from profiles where user_id = $1) returning id`,
    [...values, input.first_name?.trim() || null, input.last_name?.trim() || null],
  );
  if (!updated.rowCount) {
    await deps.db.query(
      `insert into profiles (user_id, gender, dob, address, postcode, city, country, first_name, last_name, state)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'submitted')`,
      [...values, input.first_name?.trim() || null, input.last_name?.trim() || null],
    );
  }
  const profile = await deps.db.query(
    `select first_name, last_name, gender, to_char(dob, 'YYYY-MM-DD') as dob, address, postcode, city, country, state
     from profiles where user_id = $1 order by id desc limit 1`,
    [user.id],
  );
  return profile.rows[0];
}
