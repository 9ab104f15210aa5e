import { hash } from '@node-rs/argon2';
import type pg from 'pg';
import { decrypt, encrypt, type ServerKeys } from '../modules/identity/crypto.ts';
import { ARGON2_OPTIONS } from '../modules/identity/passwords.ts';
import { newTotpSecret } from '../modules/identity/totp.ts';
import { newUid } from '../modules/identity/uid.ts';
import { insertSuperadminOnce, sealedTotpSecret } from './demo-repository.ts';

/** The development install's staff user: a superadmin with two-factor on (never in production). */
export const DEMO_STAFF_EMAIL = 'admin@example.com';

/**
 * Creates the demo superadmin once (active, level 3, two-factor on with a secret of its own) and returns its
 * TOTP secret, which the start-up log prints so a developer can open `/admin` (e.g. `oathtool --totp -b <secret>`).
 */
export async function ensureDemoStaff(db: pg.Pool, keys: ServerKeys, password: string): Promise<string> {
  const sealed = await sealedTotpSecret(db, DEMO_STAFF_EMAIL);
  if (sealed) return decrypt(keys, sealed);
  await insertSuperadminOnce(db, {
    uid: newUid(),
    email: DEMO_STAFF_EMAIL,
    passwordDigest: await hash(password, ARGON2_OPTIONS),
    otpSecretEnc: encrypt(keys, newTotpSecret()),
  });
  return ensureDemoStaff(db, keys, password);
}
