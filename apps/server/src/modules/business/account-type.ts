import type pg from 'pg';

/** The FAQ's two account types (migration 0040). */
export type AccountType = 'personal' | 'business';

/**
 * True when the user holds a business account at level 3: the company and its representative are verified,
 * which is what mass payouts and SEPA bank deposits require (issue 31, part 3).
 */
export async function isVerifiedBusiness(
  db: pg.Pool | pg.PoolClient,
  userId: bigint | number | string,
): Promise<boolean> {
  const { rows } = await db.query<{ ok: boolean }>(
    `select account_type = 'business' and level >= 3 and state = 'active' as ok from users where id = $1`,
    [String(userId)],
  );
  return rows[0]?.ok === true;
}
