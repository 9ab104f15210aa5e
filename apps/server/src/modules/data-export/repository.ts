import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';

/** How long after an export the next one is possible (once a day). */
export const EXPORT_INTERVAL_HOURS = 24;

/** The tables the export walks by id; each gives its newest id as the walk's end (see Keyset). */
export type WalkedTable =
  | 'activities'
  | 'orders'
  | 'trades'
  | 'deposits'
  | 'withdrawals'
  | 'adjustments'
  | 'swaps'
  | 'beneficiaries'
  | 'api_keys'
  | 'fiat_withdrawals'
  | 'bank_transfers'
  | 'payout_files';

/**
 * When the user may take the next copy of their data: the newest export of the 24 hours before `now` that did not
 * fail, plus 24 hours; null when one is possible now. Call it under the user's `dataExport` lock.
 */
export async function nextExportAt(tx: Tx, userId: string, now: Date): Promise<Date | null> {
  const row = (
    await tx.query<{ next_at: Date }>(
      `select created_at + make_interval(hours => $2) as next_at from data_exports
        where user_id = $1 and failed_at is null and created_at > $3::timestamptz - make_interval(hours => $2)
        order by created_at desc limit 1`,
      [userId, EXPORT_INTERVAL_HOURS, now],
    )
  ).rows[0];
  return row?.next_at ?? null;
}

/** Records an export that begins at `at`; returns its id. */
export async function insertExport(tx: Tx, userId: string, at: Date): Promise<number> {
  const row = (
    await tx.query<{ id: string }>(
      'insert into data_exports (user_id, created_at) values ($1, $2) returning id',
      [userId, at],
    )
  ).rows[0];
  return Number(row?.id);
}

/** The export was sent in full: its size in bytes. */
export async function finishExport(db: pg.Pool, id: number, bytes: number): Promise<void> {
  await db.query('update data_exports set finished_at = now(), bytes = $2 where id = $1', [id, bytes]);
}

/** The server could not finish the export: it does not count against the daily one. */
export async function failExport(db: pg.Pool | pg.PoolClient, id: number): Promise<void> {
  await db.query('update data_exports set failed_at = now() where id = $1', [id]);
}

/** The newest id of a table (0 when empty): through its primary key, whatever the table's size. */
export async function newestId(db: pg.Pool, table: WalkedTable): Promise<number> {
  const row = (await db.query<{ id: string }>(`select coalesce(max(id), 0)::text as id from ${table}`))
    .rows[0];
  return Number(row!.id);
}
