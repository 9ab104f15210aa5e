import { randomBytes } from 'node:crypto';
import { encrypt, newTotpSecret, type ServerKeys } from '@exchange/server/bench';
import type pg from 'pg';

/**
 * A bench trader: an active level-2 user with two-factor on and 50 API keys (the load spreads its signed
 * requests over them, as several bots of one account would).
 */
export async function benchTrader(
  pool: pg.Pool,
  keys: ServerKeys,
  who: { uid: string; email: string; passwordDigest: string },
): Promise<{ user: string; apiKeys: { kid: string; secret: string }[] }> {
  const user = (
    await pool.query(
      `insert into users (uid, email, password_digest, level, state, otp, otp_secret_enc)
       values ($1, $2, $3, 2, 'active', true, $4) returning id`,
      [who.uid, who.email, who.passwordDigest, encrypt(keys, newTotpSecret())],
    )
  ).rows[0].id as string;
  const apiKeys = [];
  for (let i = 0; i < 50; i++) {
    const kid = randomBytes(8).toString('hex');
    const secret = randomBytes(32).toString('hex');
    await pool.query('insert into api_keys (user_id, kid, secret_enc) values ($1, $2, $3)', [
      user,
      kid,
      encrypt(keys, secret),
    ]);
    apiKeys.push({ kid, secret });
  }
  return { user, apiKeys };
}
