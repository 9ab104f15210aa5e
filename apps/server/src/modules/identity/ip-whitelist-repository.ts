import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';
import { isoSql, lockUser } from './users-repository.ts';

/** An entry of a user's login whitelist as listed. */
export interface IpWhitelistEntry {
  id: string;
  ip: string;
  created_at: string;
}

const ENTRY_COLUMNS = `id::text as id, rule as ip, ${isoSql('created_at')} as created_at`;

/** The user's login whitelist, oldest entry first. */
export async function listEntries(db: pg.Pool | Tx, userId: string): Promise<IpWhitelistEntry[]> {
  return (
    await db.query<IpWhitelistEntry>(
      `select ${ENTRY_COLUMNS} from login_ip_whitelist where user_id = $1 order by id`,
      [userId],
    )
  ).rows;
}

/** The canonical entries of the user's login whitelist (read at each login of an account with two-factor). */
export async function loginRules(db: pg.Pool, userId: string): Promise<string[]> {
  return (
    await db.query<{ rule: string }>('select rule from login_ip_whitelist where user_id = $1', [userId])
  ).rows.map((r) => r.rule);
}

/**
 * Locks the user's row for the rest of the transaction, so that two changes of one list (two tabs, two api
 * processes) are checked one after the other against the list as the other left it.
 */
export async function lockUserList(tx: Tx, userId: string): Promise<void> {
  await lockUser(tx, userId);
}

export async function insertEntry(tx: Tx, userId: string, rule: string): Promise<IpWhitelistEntry> {
  return (
    await tx.query<IpWhitelistEntry>(
      `insert into login_ip_whitelist (user_id, rule) values ($1, $2) returning ${ENTRY_COLUMNS}`,
      [userId, rule],
    )
  ).rows[0]!;
}

/** Deletes one of the user's own entries; undefined when the user has no entry with that id. */
export async function deleteEntry(tx: Tx, userId: string, id: string): Promise<IpWhitelistEntry | undefined> {
  return (
    await tx.query<IpWhitelistEntry>(
      `delete from login_ip_whitelist where id = $1 and user_id = $2 returning ${ENTRY_COLUMNS}`,
      [id, userId],
    )
  ).rows[0];
}
