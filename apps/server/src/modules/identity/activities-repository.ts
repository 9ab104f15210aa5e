import type pg from 'pg';
import type { Keyset } from '../../db/keyset.ts';
import { isoSql } from './users-repository.ts';

/** One entry of the security log as Barong's Activity entity has it (`ip` is kept for this app's own screens). */
export interface ActivityEntity {
  id: number;
  user_ip: string | null;
  ip: string | null;
  user_agent: string | null;
  topic: string;
  action: string;
  result: string;
  data: string | null;
  created_at: string;
}

/** An activities row as the listing reads it (`id` is a bigint, so a string). */
type ActivityRow = Omit<ActivityEntity, 'id' | 'user_ip'> & { id: string };

/** The entity of a row: a numeric id, and the address again as Barong's `user_ip`. */
const entity = (r: ActivityRow): ActivityEntity => ({ ...r, id: Number(r.id), user_ip: r.ip });

/**
 * A page of the user's security log, newest first: all topics (`all`) or one (`session`, `password`, `otp`,
 * `account`...), with the total for the `Total` header. `data` is a JSON text, as Barong stores it.
 */
export async function listActivities(
  db: pg.Pool,
  userId: string,
  topic: string,
  page: number,
  limit: number,
): Promise<{ items: ActivityEntity[]; total: number }> {
  const where = `user_id = $1 and ($2 = 'all' or topic = $2)`;
  const [rows, count] = await Promise.all([
    db.query<ActivityRow>(
      `select id, ip, user_agent, topic, action, result, data::text as data, ${isoSql('created_at')} as created_at
       from activities where ${where} order by id desc limit $3 offset $4`,
      [userId, topic, limit, (page - 1) * limit],
    ),
    db.query<{ total: number }>(`select count(*)::int as total from activities where ${where}`, [
      userId,
      topic,
    ]),
  ]);
  return {
    items: rows.rows.map(entity),
    total: count.rows[0]!.total,
  };
}

/** A {@link Keyset} page of the user's whole security log, oldest first, in the list's shape (the data export). */
export async function activitiesAfter(db: pg.Pool, userId: string, page: Keyset): Promise<ActivityEntity[]> {
  const rows = await db.query<ActivityRow>(
    `select id, ip, user_agent, topic, action, result, data::text as data, ${isoSql('created_at')} as created_at
     from activities where user_id = $1 and id > $2 and id <= $3 order by id limit $4`,
    [userId, page.after, page.upTo, page.limit],
  );
  return rows.rows.map(entity);
}
