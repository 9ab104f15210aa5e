import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';
import type { AccountType } from '../business/account-type.ts';

type Db = pg.Pool | Tx;

/** A new account as registration creates it: pending at level 0, with its public uid and password digest. */
export interface NewAccount {
  uid: string;
  email: string;
  passwordDigest: string;
}

/** Creates a pending, level-0 account of `accountType`; its row id, or undefined when the email is taken. */
export async function insertPendingUser(
  db: Db,
  account: NewAccount,
  accountType: AccountType,
): Promise<string | undefined> {
  const inserted = await db.query<{ id: string }>(
    `insert into users (uid, email, password_digest, level, state, account_type)
       values ($1, $2, $3, 0, 'pending', $4) on conflict (lower(email)) do nothing returning id`,
    [account.uid, account.email, account.passwordDigest, accountType],
  );
  return inserted.rows[0]?.id;
}

/**
 * Creates a pending, level-0 account with the table's default account type (Barong's sign-up, BASEAPP_COMPAT);
 * its row id, or undefined when the email is taken.
 */
export async function insertPendingEmailUser(db: Db, account: NewAccount): Promise<string | undefined> {
  const inserted = await db.query<{ id: string }>(
    `insert into users (uid, email, password_digest, level, state) values ($1, $2, $3, 0, 'pending')
       on conflict (lower(email)) do nothing returning id`,
    [account.uid, account.email, account.passwordDigest],
  );
  return inserted.rows[0]?.id;
}

/** Makes the account active at level 2 at least (both registration codes matched). */
export async function activateVerifiedUser(db: Db, userId: string): Promise<void> {
  await db.query(
    `update users set level = greatest(level, 2), state = 'active', updated_at = now() where id = $1`,
    [userId],
  );
}

/** Raises the account to level 1 at least (its email confirmed; the phone still to verify). */
export async function raiseToEmailLevel(db: Db, userId: string): Promise<void> {
  await db.query('update users set level = greatest(level, 1), updated_at = now() where id = $1', [userId]);
}

/** Makes a pending account active at level 1 at least (confirmed by the mailed link); nothing if not pending. */
export async function activateConfirmedUser(db: Db, userId: string): Promise<void> {
  await db.query(
    `update users set level = greatest(level, 1), state = 'active', updated_at = now()
       where id = $1 and state = 'pending'`,
    [userId],
  );
}

/**
 * Raises an active level-1 account to level 2 when its email and phone are verified and its latest profile has
 * first and last name and country; the new level, or undefined when nothing changed.
 */
export async function promoteCompleteUser(db: Db, userId: string): Promise<number | undefined> {
  const row = await db.query<{ level: number }>(
    `update users u set level = 2, updated_at = now()
     where u.id = $1 and u.level = 1 and u.state = 'active'
       and exists (select 1 from labels where user_id = u.id and key = 'email' and value = 'verified')
       and exists (select 1 from labels where user_id = u.id and key = 'phone' and value = 'verified')
       and exists (select 1 from profiles p where p.id = (select max(id) from profiles where user_id = u.id)
         and coalesce(p.first_name, '') <> '' and coalesce(p.last_name, '') <> '' and coalesce(p.country, '') <> '')
     returning level`,
    [userId],
  );
  return row.rows[0]?.level;
}
