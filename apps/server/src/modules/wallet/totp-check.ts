import { ERRORS } from '@exchange/shared';
import type pg from 'pg';
import type { Clock } from '../../clock.ts';
import { invalid } from '../../http/errors.ts';
import { decrypt, type ServerKeys } from '../identity/crypto.ts';
import { consumeTotp } from '../identity/totp.ts';
import type { UserRecord } from '../identity/users-repository.ts';

/**
 * Accepts the user's authenticator code once, else throws `invalidCode` (422); a replay (right code, step already
 * used) is refused as resource.otp.code_used, so the user knows to wait for the next code.
 */
export async function checkTotp(
  deps: { db: pg.Pool; keys: ServerKeys; clock: Clock },
  user: UserRecord,
  code: string,
  invalidCode: string,
): Promise<void> {
  if (!user.otp_secret_enc) throw invalid(invalidCode);
  const check = await consumeTotp(deps, user.id, decrypt(deps.keys, user.otp_secret_enc), code);
  if (check !== 'ok') throw invalid(check === 'used' ? ERRORS.totpUsed : invalidCode);
}
