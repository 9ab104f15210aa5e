import type pg from 'pg';
import type { SelectOne, Tx } from '../../db/pool.ts';

type Db = pg.Pool | Tx;

/** True when the account was mailed a reset link after `since` (the resend gap). */
export async function resetMailedSince(db: Db, userId: string, since: Date): Promise<boolean> {
  const rows = await db.query<SelectOne>(
    'select 1 from password_resets where user_id = $1 and created_at > $2 limit 1',
    [userId, since],
  );
  return rows.rowCount === 1;
}

/** Stores a reset link by its token's hash, made at `at` and good until `expiresAt`. */
export async function insertPasswordReset(
  db: Db,
  reset: { tokenHash: string; userId: string; at: Date; expiresAt: Date },
): Promise<void> {
  await db.query(
    'insert into password_resets (token_hash, user_id, created_at, expires_at) values ($1, $2, $3, $4)',
    [reset.tokenHash, reset.userId, reset.at, reset.expiresAt],
  );
}

/** Uses up the unused, unexpired link with this token hash at `at`: the account it was for, or undefined. */
export async function useResetToken(db: Db, tokenHash: string, at: Date): Promise<string | undefined> {
  const row = (
    await db.query<{ user_id: string }>(
      `update password_resets set used_at = $2
        where token_hash = $1 and used_at is null and expires_at > $2 returning user_id`,
      [tokenHash, at],
    )
  ).rows[0];
  return row === undefined ? undefined : String(row.user_id);
}

/** True while the link with this token hash is unused and unexpired at `at`. */
export async function resetTokenUnused(db: Db, tokenHash: string, at: Date): Promise<boolean> {
  const rows = await db.query<SelectOne>(
    'select 1 from password_resets where token_hash = $1 and used_at is null and expires_at > $2',
    [tokenHash, at],
  );
  return rows.rowCount === 1;
}

/** Marks every outstanding reset link of the account used. */
export async function endResetsOf(db: Db, userId: string): Promise<void> {
  await db.query('update password_resets set used_at = now() where user_id = $1 and used_at is null', [
    userId,
  ]);
}

/** Stores a new password digest, changed at `at`. */
export async function setPasswordDigest(db: Db, userId: string, digest: string, at: Date): Promise<void> {
  await db.query(
    'update users set password_digest = $2, password_changed_at = $3, updated_at = now() where id = $1',
    [userId, digest, at],
  );
}
