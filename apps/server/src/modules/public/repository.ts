import type pg from 'pg';

/** Whether the database answers a trivial query (the health routes); throws when it does not. */
export async function pingDatabase(db: pg.Pool): Promise<void> {
  await db.query('select 1');
}
