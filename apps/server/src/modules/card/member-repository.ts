import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';

type Db = pg.Pool | Tx;

/** The member's newest profile, as the card issuer's user record takes it. */
export interface MemberProfile {
  first_name: string | null;
  last_name: string | null;
  address: string | null;
  city: string | null;
  postcode: string | null;
}

/** The member's newest profile (name and address), or undefined before one is entered. */
export async function latestProfile(db: Db, userId: string): Promise<MemberProfile | undefined> {
  return (
    await db.query<MemberProfile>(
      `select first_name, last_name, address, city, postcode from profiles where user_id = $1
       order by id desc limit 1`,
      [userId],
    )
  ).rows[0];
}

/** The member's newest confirmed phone number, or undefined. */
export async function confirmedPhone(db: Db, userId: string): Promise<string | undefined> {
  return (
    await db.query<{ number: string }>(
      'select number from phones where user_id = $1 and validated_at is not null order by id desc limit 1',
      [userId],
    )
  ).rows[0]?.number;
}

/** How many times the member's `action` failed in the `minutes` before `now` (the security log's entries). */
export async function recentFailures(
  db: Db,
  userId: string,
  action: string,
  minutes: number,
  now: Date,
): Promise<number> {
  const row = (
    await db.query<{ n: number }>(
      `select count(*)::int as n from activities
        where user_id = $1 and action = $2 and result = 'failed'
          and created_at > $4::timestamptz - make_interval(mins => $3)`,
      [userId, action, minutes, now],
    )
  ).rows[0];
  return row?.n ?? 0;
}
