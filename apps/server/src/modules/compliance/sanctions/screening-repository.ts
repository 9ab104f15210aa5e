import type { SanctionsSubjectKind } from '@exchange/shared';
import type pg from 'pg';
import type { Tx } from '../../../db/pool.ts';

type Db = pg.Pool | Tx;

/** A customer whose names changed, queued by the database's triggers (the user's id as text). */
export interface QueuedUser {
  user_id: string;
  queued_at: Date;
}

/** A name of the customer's that is screened, as read (null or blank ones too: the caller drops them). */
export interface SubjectRow {
  kind: SanctionsSubjectKind;
  name: string | null;
}

/** The oldest `limit` customers queued for screening. */
export async function queuedUsers(db: Db, limit: number): Promise<QueuedUser[]> {
  return (
    await db.query<QueuedUser>(`select user_id, queued_at from sanctions_queue order by queued_at limit $1`, [
      limit,
    ])
  ).rows;
}

/** Takes the customer off the queue, unless their names changed again after `queuedAt` (then they stay). */
export async function dequeueUser(db: Db, userId: string, queuedAt: Date): Promise<void> {
  await db.query(`delete from sanctions_queue where user_id = $1 and queued_at <= $2`, [userId, queuedAt]);
}

/**
 * The next `limit` customers after id `after` who have a name to screen and are due at `now` (never screened, or
 * their next screening is due); with `all`, every one of them. Their ids (bigint as text), in order.
 */
export async function dueUsers(
  db: Db,
  now: Date,
  limit: number,
  after: string,
  all: boolean,
): Promise<{ id: string }[]> {
  return (
    await db.query<{ id: string }>(
      `select u.id from users u
           left join sanctions_screened s on s.user_id = u.id
           where u.id > $3 and ($4 or s.due_at is null or s.due_at <= $1)
             and (exists (select 1 from profiles p where p.user_id = u.id
                          and coalesce(p.first_name, p.middle_name, p.last_name) is not null)
               or exists (select 1 from companies c where c.user_id = u.id)
               or exists (select 1 from beneficiaries b where b.user_id = u.id))
           order by u.id limit $2`,
      [now, limit, after, all],
    )
  ).rows;
}

/** The customer's names: the newest profile's, the company's, its representatives', the beneficiaries'. */
export async function subjectNames(db: Db, userId: string | number): Promise<SubjectRow[]> {
  return (
    await db.query<SubjectRow>(
      `select 'customer' as kind, name from (
           select concat_ws(' ', nullif(trim(first_name), ''), nullif(trim(middle_name), ''),
             nullif(trim(last_name), '')) as name
           from profiles where user_id = $1 order by id desc limit 1) p
         union all select 'company', name from companies where user_id = $1
         union all select 'representative', r.name from company_representatives r
           join companies c on c.id = r.company_id where c.user_id = $1
         union all select 'beneficiary', name from beneficiaries where user_id = $1
         union all select 'beneficiary', description from beneficiaries where user_id = $1`,
      [userId],
    )
  ).rows;
}

/** Records that the customer was screened against the list at `now`, due again `hours` later. */
export async function markScreened(
  db: Db,
  userId: string | number,
  listId: string,
  now: Date,
  hours: number,
): Promise<void> {
  await db.query(
    `insert into sanctions_screened (user_id, list_id, screened_at, due_at)
       values ($1, $2, $3, $3::timestamptz + make_interval(hours => $4))
       on conflict (user_id) do update set list_id = $2, screened_at = $3, due_at = excluded.due_at`,
    [userId, listId, now, hours],
  );
}
