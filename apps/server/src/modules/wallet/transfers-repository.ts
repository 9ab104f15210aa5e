import type pg from 'pg';
import type { SelectOne, Tx } from '../../db/pool.ts';

/** The wallet's SQL for internal transfers: the currency's networks and the recipient's account. */
type Db = pg.Pool | Tx;

/** A network of the transferred currency, with its withdrawal rules (amounts exact decimals). */
export interface TransferNetworkRow {
  blockchain_key: string;
  min_withdraw_amount: string;
  withdraw_fee: string;
  withdraw_enabled: boolean;
  precision: number;
}

/** The currency's networks (only `blockchainKey`'s when given), in their order. */
export async function transferNetworks(
  db: Db,
  currency: string,
  blockchainKey: string | null,
): Promise<TransferNetworkRow[]> {
  return (
    await db.query<TransferNetworkRow>(
      `select n.blockchain_key, n.min_withdraw_amount::text, n.withdraw_fee::text, n.withdraw_enabled, c.precision
       from currency_networks n join currencies c on c.id = n.currency_id
       where n.currency_id = $1 and ($2::text is null or n.blockchain_key = $2) order by n.id`,
      [currency, blockchainKey],
    )
  ).rows;
}

/** The id (bigint, as text) of the active user whose email is `email` (lower case), or undefined. */
export async function activeUserIdByEmail(db: Db, email: string): Promise<string | undefined> {
  return (
    await db.query<{ id: string }>(`select id from users where lower(email) = $1 and state = 'active'`, [
      email,
    ])
  ).rows[0]?.id;
}

/** The ids (bigint, as text) of the active users with a confirmed phone number whose digits are `digits`. */
export async function activeUserIdsByPhoneDigits(db: Db, digits: string): Promise<string[]> {
  return (
    await db.query<{ user_id: string }>(
      `select distinct p.user_id from phones p join users u on u.id = p.user_id
         where regexp_replace(p.number, '\\D', '', 'g') = $1 and p.validated_at is not null and u.state = 'active'`,
      [digits],
    )
  ).rows.map((r) => r.user_id);
}

/** Whether the user `userId` is active. */
export async function isActiveUser(db: Db, userId: number): Promise<boolean> {
  return Boolean(
    (await db.query<SelectOne>(`select 1 from users where id = $1 and state = 'active'`, [userId])).rowCount,
  );
}
