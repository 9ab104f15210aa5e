import type pg from 'pg';
import type { Tx } from '../../../db/pool.ts';

type Db = pg.Pool | Tx;

/** What the originator's profile holds for the travel rule's record (the date of birth as YYYY-MM-DD). */
export interface OriginatorProfileRow {
  first_name: string | null;
  last_name: string | null;
  address: string | null;
  postcode: string | null;
  city: string | null;
  country: string | null;
  dob: string | null;
}

/** The delivery's outcome kept on a withdrawal. */
export type DeliveryStatus = 'sent' | 'refused' | 'unreachable';

/** The user's latest verified profile, else the latest one; undefined without any. */
export async function originatorProfile(db: Db, userId: string): Promise<OriginatorProfileRow | undefined> {
  return (
    await db.query<OriginatorProfileRow>(
      `select first_name, last_name, address, postcode, city, country, to_char(dob, 'YYYY-MM-DD') as dob
       from profiles where user_id = $1 order by (state = 'verified') desc, id desc limit 1`,
      [userId],
    )
  ).rows[0];
}

/** The uid of the user with this id, or undefined. */
export async function uidOfUser(db: Db, userId: number | string): Promise<string | undefined> {
  return (await db.query<{ uid: string }>('select uid from users where id = $1', [userId])).rows[0]?.uid;
}

/** Keeps the beneficiary's provider's answer (`answer`, as JSON) and its outcome on the withdrawal. */
export async function recordDeliveryAnswer(
  db: Db,
  withdrawalId: number,
  status: DeliveryStatus,
  answer: unknown,
): Promise<void> {
  await db.query(
    `update withdrawals set travel_rule_status = $2,
       travel_rule = travel_rule || jsonb_build_object('answer', $3::jsonb) where id = $1`,
    [withdrawalId, status, JSON.stringify(answer)],
  );
}
