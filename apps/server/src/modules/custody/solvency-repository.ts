import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';

/** The database's time (of the transaction `db` runs in: a read snapshot's own). */
export async function databaseNow(db: pg.Pool | Tx): Promise<Date> {
  const row = (await db.query<{ at: Date }>('select now() as at')).rows[0];
  if (!row) throw new Error('the database gave no time');
  return row.at;
}

/** An address on a network. */
export interface NetworkAddressRow {
  blockchain_key: string;
  address: string;
}

/**
 * Every address of ours on these networks: the deposit addresses ever handed out (in order), the hot wallets and
 * the cold addresses.
 */
export async function ourAddresses(
  db: pg.Pool,
  networks: string[],
): Promise<{ deposit: NetworkAddressRow[]; hot: NetworkAddressRow[]; cold: NetworkAddressRow[] }> {
  const [deposit, hot, cold] = await Promise.all([
    db.query<NetworkAddressRow>(
      'select blockchain_key, address from deposit_addresses where blockchain_key = any($1) order by id',
      [networks],
    ),
    db.query<NetworkAddressRow>(
      'select blockchain_key, address from hot_wallets where blockchain_key = any($1)',
      [networks],
    ),
    db.query<NetworkAddressRow>(
      'select blockchain_key, address from cold_wallets where blockchain_key = any($1)',
      [networks],
    ),
  ]);
  return { deposit: deposit.rows, hot: hot.rows, cold: cold.rows };
}
