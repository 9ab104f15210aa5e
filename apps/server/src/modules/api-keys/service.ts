import { randomBytes } from 'node:crypto';
import { ERRORS } from '@exchange/shared';
import { AppError, invalid, notFound } from '../../http/errors.ts';
import { decrypt, encrypt } from '../identity/crypto.ts';
import { canonicalRules } from '../identity/ip-whitelist-rules.ts';
import { mailSecurityNotice } from '../identity/notify.ts';
import type { IdentityDeps, RequestOrigin } from '../identity/registration.ts';
import { consumeTotp } from '../identity/totp.ts';
import { recordActivity, type UserRecord } from '../identity/users-repository.ts';
import type { ApiKeyAuthenticator } from './hmac.ts';
import { deleteKey, findOwnKey, insertKey, publicKey, updateKey } from './repository.ts';

type Deps = IdentityDeps & { apiKeys: ApiKeyAuthenticator };

/**
 * The authenticator code of an API key change, refused as Barong refuses it: 400 `resource.api_key.2fa_disabled`
 * without two-factor, 422 `resource.api_key.invalid_totp` for a wrong code or one already used.
 */
async function requireKeyTotp(deps: Deps, user: UserRecord, code: string): Promise<void> {
  if (!user.otp || !user.otp_secret_enc) throw new AppError(400, [ERRORS.apiKey2faDisabled]);
  const check = await consumeTotp(deps, user.id, decrypt(deps.keys, user.otp_secret_enc), code);
  if (check !== 'ok') throw invalid(ERRORS.apiKeyInvalidTotp);
}

/** Records in the security log (`ip_whitelist`) that a key's allowed IPs were set. */
function recordAllowedIps(
  deps: Deps,
  user: UserRecord,
  kid: string,
  allowedIps: string[],
  origin: RequestOrigin,
) {
  return recordActivity(deps.db, {
    userId: user.id,
    action: 'api_key.allowed_ips',
    result: 'succeed',
    topic: 'ip_whitelist',
    ...origin,
    data: { kid, allowed_ips: allowedIps },
  });
}

/**
 * Creates an HS256 key for a user with two-factor on, usable from `allowed_ips` only when that list is not
 * empty; the secret is returned this once and stored encrypted. The list is read before the code is checked, so
 * a mistyped entry does not use up the code.
 */
export async function createApiKey(
  deps: Deps,
  user: UserRecord,
  input: { totp_code: string; allowed_ips: string[] },
  origin: RequestOrigin,
) {
  const allowedIps = canonicalRules(input.allowed_ips);
  await requireKeyTotp(deps, user, input.totp_code);
  const kid = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('hex');
  const key = await insertKey(deps.db, user.id, kid, encrypt(deps.keys, secret), allowedIps);
  await recordActivity(deps.db, {
    userId: user.id,
    action: 'api_key.create',
    result: 'succeed',
    topic: 'api_keys',
    ...origin,
    data: { kid },
  });
  if (allowedIps.length > 0) await recordAllowedIps(deps, user, kid, allowedIps, origin);
  await mailSecurityNotice(deps, user.email, 'A new API key was created', user.anti_phishing_phrase);
  return { ...publicKey(key), secret, accessKey: kid, secretKey: secret };
}

/**
 * Switches one of the user's own keys on or off and/or replaces its allowed IPs; someone else's kid is simply
 * not found. Every api process forgets the key at the change feed's `k:<kid>`, this one at once.
 */
export async function updateApiKey(
  deps: Deps,
  user: UserRecord,
  kid: string,
  input: { state?: 'active' | 'inactive' | undefined; allowed_ips?: string[] | undefined; totp_code: string },
  origin: RequestOrigin,
) {
  const key = await findOwnKey(deps.db, user.id, kid);
  if (!key) throw notFound();
  const allowedIps = input.allowed_ips === undefined ? undefined : canonicalRules(input.allowed_ips);
  await requireKeyTotp(deps, user, input.totp_code);
  const updated = await updateKey(deps.db, key.id, {
    ...(input.state ? { state: input.state } : {}),
    ...(allowedIps ? { allowedIps } : {}),
  });
  deps.apiKeys.invalidate(kid);
  if (input.state) {
    await recordActivity(deps.db, {
      userId: user.id,
      action: `api_key.${input.state}`,
      result: 'succeed',
      topic: 'api_keys',
      ...origin,
      data: { kid },
    });
  }
  if (allowedIps) await recordAllowedIps(deps, user, kid, allowedIps, origin);
  return publicKey(updated);
}

/** Deletes one of the user's own keys. */
export async function deleteApiKey(
  deps: Deps,
  user: UserRecord,
  kid: string,
  totpCode: string,
  origin: RequestOrigin,
) {
  const key = await findOwnKey(deps.db, user.id, kid);
  if (!key) throw notFound();
  await requireKeyTotp(deps, user, totpCode);
  await deleteKey(deps.db, key.id);
  deps.apiKeys.invalidate(kid);
  await recordActivity(deps.db, {
    userId: user.id,
    action: 'api_key.delete',
    result: 'succeed',
    topic: 'api_keys',
    ...origin,
    data: { kid },
  });
  await mailSecurityNotice(deps, user.email, 'An API key was deleted', user.anti_phishing_phrase);
}
