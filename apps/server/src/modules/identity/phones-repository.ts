import type pg from 'pg';
import type { SelectOne, Tx } from '../../db/pool.ts';

type Db = pg.Pool | Tx;

/**
 * True when `number` (E.164 digits) is the verified phone of an account other than `userId`: a number names one
 * account (a unique index on verified numbers holds it), so a second account cannot verify it.
 */
export async function phoneTaken(db: Db, number: string, userId?: string): Promise<boolean> {
  const taken = await db.query<SelectOne>(
    'select 1 from phones where number = $1 and validated_at is not null and user_id is distinct from $2::bigint',
    [number, userId ?? null],
  );
  return (taken.rowCount ?? 0) > 0;
}

/** True when the account has a phone at all (it registered the spec's way, with a phone to verify). */
export async function hasAnyPhone(db: Db, userId: string): Promise<boolean> {
  return (
    ((await db.query<SelectOne>('select 1 from phones where user_id = $1 limit 1', [userId])).rowCount ?? 0) >
    0
  );
}

/** The country of the account's latest phone, or undefined when it has none. */
export async function latestPhoneCountry(db: Db, userId: string): Promise<string | undefined> {
  return (
    await db.query<{ country: string }>(
      'select country from phones where user_id = $1 order by id desc limit 1',
      [userId],
    )
  ).rows[0]?.country;
}

/** Adds an unverified phone to the account (registration). */
export async function insertPhone(db: Db, userId: string, country: string, number: string): Promise<void> {
  await db.query('insert into phones (user_id, country, number) values ($1, $2, $3)', [
    userId,
    country,
    number,
  ]);
}

/** Replaces every phone of the account by one verified now (a confirmed phone change). */
export async function replacePhonesWithVerified(
  tx: Tx,
  userId: string,
  country: string,
  number: string,
): Promise<void> {
  // No row of an earlier number may still name this account (phone login looks the account up by any of its rows).
  await tx.query('delete from phones where user_id = $1', [userId]);
  await tx.query('insert into phones (user_id, country, number, validated_at) values ($1, $2, $3, now())', [
    userId,
    country,
    number,
  ]);
}

/** Marks the account's latest phone verified now. */
export async function validateLatestPhone(db: Db, userId: string): Promise<void> {
  await db.query(
    `update phones set validated_at = now() where id = (select max(id) from phones where user_id = $1)`,
    [userId],
  );
}
