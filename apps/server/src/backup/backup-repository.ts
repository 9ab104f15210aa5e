import type pg from 'pg';

/**
 * PostgreSQL's own backup controls, each on the one connection the backup holds from start to stop: they only
 * mean something in that session and in this order (a slot and a backup that end with the session).
 */

/** A temporary physical replication slot that keeps the WAL from now on; PostgreSQL drops it with the session. */
export async function createTemporarySlot(client: pg.PoolClient, slot: string): Promise<void> {
  await client.query('select pg_create_physical_replication_slot($1, true, true)', [slot]);
}

/** `pg_backup_start` in fast mode (an immediate checkpoint), labelled `label`. */
export async function startBackup(client: pg.PoolClient, label: string): Promise<void> {
  await client.query('select pg_backup_start($1, true)', [label]);
}

/** What `pg_backup_stop` returns: where the backup ends, its label file and the WAL segment it ends in. */
export interface BackupStop {
  lsn: string;
  labelfile: string;
  walfile: string;
}

/** `pg_backup_stop` without waiting for the WAL archive (the backup carries its own WAL). */
export async function stopBackup(client: pg.PoolClient): Promise<BackupStop | undefined> {
  const stopped = await client.query<BackupStop>(
    'select lsn::text, labelfile, pg_walfile_name(lsn) as walfile from pg_backup_stop(false)',
  );
  return stopped.rows[0];
}

/**
 * Opens a read-only repeatable-read transaction and exports its snapshot (for `pg_dump --snapshot`): everything
 * read on `client` until {@link endSnapshot} sees that one moment.
 */
export async function beginExportedSnapshot(client: pg.PoolClient): Promise<string> {
  await client.query('begin isolation level repeatable read read only');
  const exported = await client.query<{ id: string }>('select pg_export_snapshot() as id');
  return exported.rows[0]?.id ?? '';
}

/** Ends the transaction of {@link beginExportedSnapshot} (the exported snapshot ends with it). */
export async function endSnapshot(client: pg.PoolClient): Promise<void> {
  await client.query('commit');
}
