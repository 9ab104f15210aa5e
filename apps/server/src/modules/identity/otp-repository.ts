import type pg from 'pg';
import type { NoRows, Tx } from '../../db/pool.ts';

type Db = pg.Pool | Tx;

/** Keeps a new two-factor secret (encrypted) until a code from it turns two-factor on. */
export async function setPendingOtpSecret(db: Db, userId: string, secretEnc: string): Promise<void> {
  await db.query('update users set otp_pending_secret_enc = $2 where id = $1', [userId, secretEnc]);
}

/**
 * Turns two-factor on with the pending secret, using up the code's `step`: true when it did (two-factor was off
 * and the step is newer than the last one used), false otherwise.
 */
export async function enableOtpWithStep(db: Db, userId: string, step: number): Promise<boolean> {
  const updated = await db.query<NoRows>(
    `update users set otp = true, otp_secret_enc = otp_pending_secret_enc, otp_pending_secret_enc = null,
       otp_last_step = $2, updated_at = now() where id = $1 and otp = false and otp_last_step < $2`,
    [userId, step],
  );
  return updated.rowCount === 1;
}

/** Turns two-factor off and forgets both secrets. */
export async function clearOtp(db: Db, userId: string): Promise<void> {
  await db.query(
    'update users set otp = false, otp_secret_enc = null, otp_pending_secret_enc = null, updated_at = now() where id = $1',
    [userId],
  );
}

/**
 * Records `step` as the last authenticator step used, atomically and only forward: false when it is not newer
 * than the last one (a replayed code, even by two concurrent requests).
 */
export async function useTotpStep(db: Db, userId: string, step: number): Promise<boolean> {
  const updated = await db.query<NoRows>(
    'update users set otp_last_step = $2 where id = $1 and otp_last_step < $2',
    [userId, step],
  );
  return updated.rowCount === 1;
}
