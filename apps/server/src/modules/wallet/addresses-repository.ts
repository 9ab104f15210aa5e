import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';

/** The wallet's SQL on our addresses: the signer's public keys, deposit addresses and hot wallets. */
type Db = pg.Pool | Tx;

/** The extended public key the signer published for `m/purpose'/coinType'/account'`, or undefined. */
export async function publishedXpub(
  db: Db,
  purpose: number,
  coinType: number,
  account: number,
): Promise<string | undefined> {
  return (
    await db.query<{ xpub: string }>(
      'select xpub from custody_xpubs where purpose = $1 and coin_type = $2 and account = $3',
      [purpose, coinType, account],
    )
  ).rows[0]?.xpub;
}

/** The user's newest deposit address on the network that comes from our keys, or undefined. */
export async function latestKeyedAddress(db: Db, userId: number, key: string): Promise<string | undefined> {
  return (
    await db.query<{ address: string }>(
      `select address from deposit_addresses where user_id = $1 and blockchain_key = $2 and key_index is not null
       order by id desc limit 1`,
      [userId, key],
    )
  ).rows[0]?.address;
}

/** Takes the next key index of a key scheme (the first is 0). */
export async function takeKeyIndex(db: Db, purpose: number, coinType: number): Promise<number> {
  const row = (
    await db.query<{ index: string | number }>(
      `insert into custody_key_counters (purpose, coin_type, next_index) values ($1, $2, 1)
           on conflict (purpose, coin_type) do update set next_index = custody_key_counters.next_index + 1
           returning next_index - 1 as index`,
      [purpose, coinType],
    )
  ).rows[0];
  if (!row) throw new Error(`no key index taken for ${purpose}'/${coinType}'`);
  return Number(row.index);
}

/** Records a user's deposit address derived at `keyIndex`. */
export async function insertDepositAddress(
  db: Db,
  a: { userId: number; key: string; address: string; keyIndex: number },
): Promise<void> {
  await db.query(
    'insert into deposit_addresses (user_id, blockchain_key, address, key_index) values ($1, $2, $3, $4)',
    [a.userId, a.key, a.address, a.keyIndex],
  );
}

/** The id (bigint, as text) of the user who owns the deposit address `address` on the network, or undefined. */
export async function depositAddressOwner(db: Db, key: string, address: string): Promise<string | undefined> {
  return (
    await db.query<{ user_id: string }>(
      'select user_id from deposit_addresses where blockchain_key = $1 and address = $2',
      [key, address],
    )
  ).rows[0]?.user_id;
}

/** Our deposit addresses among `addresses` on the network with their key index (legacy ones, with none, left out). */
export async function keyedDepositAddresses(
  db: Db,
  key: string,
  addresses: string[],
): Promise<{ address: string; key_index: string | number }[]> {
  return (
    await db.query<{ address: string; key_index: string | number }>(
      `select address, key_index from deposit_addresses
     where blockchain_key = $1 and address = any($2) and key_index is not null`,
      [key, addresses],
    )
  ).rows;
}

/** Records the network's hot wallet address (for the console), where it differs from the one recorded. */
export async function recordHotWallet(db: Db, key: string, address: string): Promise<void> {
  await db.query(
    `insert into hot_wallets (blockchain_key, address) values ($1, $2)
       on conflict (blockchain_key) do update set address = excluded.address where hot_wallets.address <> excluded.address`,
    [key, address],
  );
}

/** Which of `addresses` are ours on the network: deposit addresses and the hot wallet. */
export async function ourAddressesAmong(db: Db, key: string, addresses: string[]): Promise<string[]> {
  return (
    await db.query<{ address: string }>(
      `select address from deposit_addresses where blockchain_key = $1 and address = any($2)
     union select address from hot_wallets where blockchain_key = $1 and address = any($2)`,
      [key, addresses],
    )
  ).rows.map((r) => r.address);
}

/** Each currency's first network and the user's newest keyed deposit address on it (null when none). */
export async function firstNetworkAddresses(
  db: Db,
  userId: number,
): Promise<{ currency_id: string; blockchain_key: string; address: string | null }[]> {
  return (
    await db.query<{ currency_id: string; blockchain_key: string; address: string | null }>(
      `select distinct on (n.currency_id) n.currency_id, n.blockchain_key, d.address
       from currency_networks n
       left join lateral (
         select address from deposit_addresses
          where user_id = $1 and blockchain_key = n.blockchain_key and key_index is not null
          order by id desc limit 1) d on true
      order by n.currency_id, n.id`,
      [userId],
    )
  ).rows;
}

/** The network a currency deposits on (the given one, or its first), with whether deposits are on; none: undefined. */
export async function depositNetwork(
  db: Db,
  currency: string,
  blockchainKey: string | null,
): Promise<{ blockchain_key: string; deposit_enabled: boolean } | undefined> {
  return (
    await db.query<{ blockchain_key: string; deposit_enabled: boolean }>(
      `select blockchain_key, deposit_enabled from currency_networks
     where currency_id = $1 and ($2::text is null or blockchain_key = $2) order by id limit 1`,
      [currency, blockchainKey],
    )
  ).rows[0];
}

/** The owners (ids bigint, as text) of those of `addresses` that are our deposit addresses on the network. */
export async function depositAddressOwners(
  db: Db,
  key: string,
  addresses: string[],
): Promise<{ address: string; user_id: string }[]> {
  return (
    await db.query<{ address: string; user_id: string }>(
      'select address, user_id from deposit_addresses where blockchain_key = $1 and address = any($2)',
      [key, addresses],
    )
  ).rows;
}

/** The user's newest deposit address on the network (keyed or not), or undefined. */
export async function newestDepositAddress(db: Db, userId: number, key: string): Promise<string | undefined> {
  return (
    await db.query<{ address: string }>(
      'select address from deposit_addresses where user_id = $1 and blockchain_key = $2 order by id desc limit 1',
      [userId, key],
    )
  ).rows[0]?.address;
}
