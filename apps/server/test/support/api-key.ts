import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { encrypt, loadServerKeys } from '../../src/modules/identity/crypto.ts';
import { newTotpSecret } from '../../src/modules/identity/totp.ts';

/**
 * Gives a user two-factor and an API key straight in the database (as the app would have stored them, encrypted
 * with the database's server secret), for tests that drive a running app as a program does.
 */
export async function apiKeyFor(db: pg.Pool, email: string): Promise<{ kid: string; secret: string }> {
  const keys = await loadServerKeys(db, undefined);
  const kid = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('hex');
  const user = await db.query(
    'update users set otp = true, otp_secret_enc = $1 where lower(email) = $2 returning id',
    [encrypt(keys, newTotpSecret()), email],
  );
  await db.query('insert into api_keys (user_id, kid, secret_enc) values ($1, $2, $3)', [
    user.rows[0].id,
    kid,
    encrypt(keys, secret),
  ]);
  return { kid, secret };
}
