import type pg from 'pg';
import { invalid } from '../../http/errors.ts';
import { decrypt, type ServerKeys } from '../identity/crypto.ts';
import { consumeTotp } from '../identity/totp.ts';
import type { UserRecord } from '../identity/users-repository.ts';

/** Accepts the user's authenticator code once (a replay is refused), else throws `invalidCode` (422). */
export async function checkTotp(
  db: pg.Pool,
  keys: ServerKeys,
  user: UserRecord,
  code: string,
  invalidCode: string,
): Promise<void> {
  if (!user.otp_secret_enc) throw invalid(invalidCode);
  if (!(await consumeTotp(db, user.id, decrypt(keys, user.otp_secret_enc), code))) throw invalid(invalidCode);
}
