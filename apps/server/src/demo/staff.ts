import { hash } from '@node-rs/argon2';
import type pg from 'pg';
import { decrypt, encrypt, type ServerKeys } from '../modules/identity/crypto.ts';
import { ARGON2_OPTIONS } from '../modules/identity/passwords.ts';
import { newTotpSecret } from '../modules/identity/totp.ts';
import { newUid } from '../modules/identity/uid.ts';

/** The development install's staff user: a superadmin with two-factor on (never in production). */
export const DEMO_STAFF_EMAIL = 'admin@example.com';

/**
 * Creates the demo superadmin once (active, level 3, two-factor on with a secret of its own) and returns its
 * TOTP secret, which the start-up log prints so a developer can open `/admin` (e.g. `oathtool --totp -b <secret>`).
 */
export async function ensureDemoStaff(db: pg.Pool, keys: ServerKeys, password: string): Promise<string> {
  const existing = (
    await db.query('select otp_secret_enc from users where lower(email) = $1', [DEMO_STAFF_EMAIL])
  ).rows[0];
  if (existing?.otp_secret_enc) return decrypt(keys, existing.otp_secret_enc);
  const secret = newTotpSecret();
  await db.query(
    `insert into users (uid, email, password_digest, role, level, state, otp, otp_secret_enc)
     values ($1, $2, $3, 'superadmin', 3, 'active', true, $4)
     on conflict (lower(email)) do nothing`,
    [newUid(), DEMO_STAFF_EMAIL, await hash(password, ARGON2_OPTIONS), encrypt(keys, secret)],
  );
  await db.query(
    `insert into labels (user_id, key, value, scope)
     select id, 'email', 'verified', 'private' from users where lower(email) = $1 on conflict do nothing`,
    [DEMO_STAFF_EMAIL],
  );
  return ensureDemoStaff(db, keys, password);
}
