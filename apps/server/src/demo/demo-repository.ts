import type pg from 'pg';
import { withTransaction } from '../db/pool.ts';

/** The demo seed's SQL: the bot accounts, the demo staff user and the markets that already have a history. */

/** The id of the user with this email (compared in lower case), if any. */
export async function userIdByEmail(db: pg.Pool, email: string): Promise<string | undefined> {
  const row = (await db.query<{ id: string }>('select id from users where lower(email) = $1', [email]))
    .rows[0];
  return row ? String(row.id) : undefined;
}

/** A level-3 active user with two-factor on and a verified email, in one transaction; returns its id. */
export function insertVerifiedUser(
  db: pg.Pool,
  user: { uid: string; email: string; passwordDigest: string; otpSecretEnc: string },
): Promise<string> {
  return withTransaction(db, async (tx) => {
    const inserted = await tx.query<{ id: string }>(
      `insert into users (uid, email, password_digest, level, state, otp, otp_secret_enc)
       values ($1, $2, $3, 3, 'active', true, $4) returning id`,
      [user.uid, user.email, user.passwordDigest, user.otpSecretEnc],
    );
    const id = String(inserted.rows[0]?.id);
    await tx.query(
      `insert into labels (user_id, key, value, scope) values ($1, 'email', 'verified', 'private')`,
      [id],
    );
    return id;
  });
}

/** The user's oldest active API key (its id and sealed secret), if any. */
export async function firstActiveKey(
  db: pg.Pool,
  userId: string,
): Promise<{ kid: string; secret_enc: string } | undefined> {
  const rows = await db.query<{ kid: string; secret_enc: string }>(
    `select kid, secret_enc from api_keys where user_id = $1 and state = 'active' order by id limit 1`,
    [userId],
  );
  return rows.rows[0];
}

/** The markets that have at least one trade (one index probe each). */
export async function marketsWithTrades(db: pg.Pool): Promise<Set<string>> {
  const traded = await db.query<{ id: string }>(
    'select id from markets m where exists (select 1 from trades t where t.market_id = m.id)',
  );
  return new Set(traded.rows.map((r) => r.id));
}

/** The sealed TOTP secret of the user with this email, if the user exists and has one. */
export async function sealedTotpSecret(db: pg.Pool, email: string): Promise<string | null> {
  const row = (
    await db.query<{ otp_secret_enc: string | null }>(
      'select otp_secret_enc from users where lower(email) = $1',
      [email],
    )
  ).rows[0];
  return row?.otp_secret_enc ?? null;
}

/**
 * A superadmin (active, level 3, two-factor on) with a verified email, unless a user with that email exists;
 * the email label is added either way.
 */
export async function insertSuperadminOnce(
  db: pg.Pool,
  user: { uid: string; email: string; passwordDigest: string; otpSecretEnc: string },
): Promise<void> {
  await db.query(
    `insert into users (uid, email, password_digest, role, level, state, otp, otp_secret_enc)
     values ($1, $2, $3, 'superadmin', 3, 'active', true, $4)
     on conflict (lower(email)) do nothing`,
    [user.uid, user.email, user.passwordDigest, user.otpSecretEnc],
  );
  await db.query(
    `insert into labels (user_id, key, value, scope)
     select id, 'email', 'verified', 'private' from users where lower(email) = $1 on conflict do nothing`,
    [user.email],
  );
}
