import { randomBytes } from 'node:crypto';
import { ERRORS } from '@exchange/shared';
import { AppError, invalid, notFound } from '../../http/errors.ts';
import { decrypt, encrypt } from '../identity/crypto.ts';
import { mailSecurityNotice } from '../identity/notify.ts';
import type { IdentityDeps, RequestOrigin } from '../identity/registration.ts';
import { consumeTotp } from '../identity/totp.ts';
import { recordActivity, type UserRecord } from '../identity/users-repository.ts';
import type { ApiKeyAuthenticator } from './hmac.ts';
import { deleteKey, findOwnKey, insertKey, publicKey, setKeyState } from './repository.ts';

type Deps = IdentityDeps & { apiKeys: ApiKeyAuthenticator };

/**
 * The authenticator code of an API key change, refused as Barong refuses it: 400 `resource.api_key.2fa_disabled`
 * without two-factor, 422 `resource.api_key.invalid_totp` for a wrong code or one already used.
 */
async function requireKeyTotp(deps: Deps, user: UserRecord, code: string): Promise<void> {
  if (!user.otp || !user.otp_secret_enc) throw new AppError(400, [ERRORS.apiKey2faDisabled]);
  const check = await consumeTotp(deps.db, user.id, decrypt(deps.keys, user.otp_secret_enc), code);
  if (check !== 'ok') throw invalid(ERRORS.apiKeyInvalidTotp);
}

/** Creates an HS256 key for a user with two-factor on; the secret is returned this once and stored encrypted. */
export async function createApiKey(deps: Deps, user: UserRecord, totpCode: string, origin: RequestOrigin) {
  await requireKeyTotp(deps, user, totpCode);
  const kid = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('hex');
  const key = await insertKey(deps.db, user.id, kid, encrypt(deps.keys, secret));
  await recordActivity(deps.db, {
    userId: user.id,
    action: 'api_key.create',
    result: 'succeed',
    topic: 'api_keys',
    ...origin,
    data: { kid },
  });
  await mailSecurityNotice(deps, user.email, 'A new API key was created', user.anti_phishing_phrase);
  return { ...publicKey(key), secret, accessKey: kid, secretKey: secret };
}

/** Switches one of the user's own keys on or off; someone else's kid is simply not found. */
export async function updateApiKey(
  deps: Deps,
  user: UserRecord,
  kid: string,
  input: { state: 'active' | 'inactive'; totp_code: string },
  origin: RequestOrigin,
) {
  const key = await findOwnKey(deps.db, user.id, kid);
  if (!key) throw notFound();
  await requireKeyTotp(deps, user, input.totp_code);
  const updated = await setKeyState(deps.db, key.id, input.state);
  deps.apiKeys.invalidate(kid);
  await recordActivity(deps.db, {
    userId: user.id,
    action: `api_key.${input.state}`,
    result: 'succeed',
    topic: 'api_keys',
    ...origin,
    data: { kid },
  });
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
