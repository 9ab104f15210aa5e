import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';
import { decrypt, encrypt, type ServerKeys } from '../identity/crypto.ts';
import type { Network } from './chains.ts';

/** A user's current deposit address on a network, creating the first one on demand. */
export async function currentDepositAddress(
  db: pg.Pool,
  keys: ServerKeys,
  network: Network,
  userId: number,
): Promise<string> {
  const existing = await latestAddress(db, userId, network);
  if (existing) return existing;
  return newDepositAddress(db, keys, network, userId);
}

/**
 * The user's newest deposit address on the network, unless the network no longer takes it as valid (one made
 * before addresses carried a checksum): then the user gets a fresh one, and the old one keeps receiving.
 */
async function latestAddress(q: pg.Pool | Tx, userId: number, network: Network): Promise<string | null> {
  const row = (
    await q.query(
      'select address from deposit_addresses where user_id = $1 and blockchain_key = $2 order by id desc limit 1',
      [userId, network.key],
    )
  ).rows[0];
  const address: string | undefined = row?.address;
  return address && network.chain.normalizeAddress(address) === address ? address : null;
}

/**
 * Creates a fresh address for the user (after each deposit, so addresses are not reused). Two concurrent
 * first requests are serialised by an advisory lock per user and network, so the user gets one address.
 */
export async function newDepositAddress(
  db: pg.Pool,
  keys: ServerKeys,
  network: Network,
  userId: number,
  onlyIfNone = true,
): Promise<string> {
  const client = await db.connect();
  try {
    await client.query('select pg_advisory_lock(hashtext($1))', [`deposit-address:${network.key}:${userId}`]);
    if (onlyIfNone) {
      const existing = await latestAddress(client, userId, network);
      if (existing) return existing;
    }
    const { address, secret } = await network.chain.createAddress();
    await client.query(
      'insert into deposit_addresses (user_id, blockchain_key, address, secret_enc) values ($1, $2, $3, $4)',
      [userId, network.key, address, encrypt(keys, secret)],
    );
    return address;
  } finally {
    await client
      .query('select pg_advisory_unlock(hashtext($1))', [`deposit-address:${network.key}:${userId}`])
      .catch(() => {});
    client.release();
  }
}

/** The user who owns `address` on the network, if it is one of ours. */
export async function addressOwner(db: pg.Pool | Tx, key: string, address: string): Promise<number | null> {
  const row = (
    await db.query('select user_id from deposit_addresses where blockchain_key = $1 and address = $2', [
      key,
      address,
    ])
  ).rows[0];
  return row ? Number(row.user_id) : null;
}

/** The signing key of one of our deposit addresses. */
export async function depositAddressSecret(db: pg.Pool, keys: ServerKeys, key: string, address: string) {
  const row = (
    await db.query('select secret_enc from deposit_addresses where blockchain_key = $1 and address = $2', [
      key,
      address,
    ])
  ).rows[0];
  if (!row) throw new Error(`${key}: ${address} is not one of our addresses`);
  return decrypt(keys, row.secret_enc);
}

/** The network's hot wallet (address and key), created on first use. */
export async function hotWallet(
  db: pg.Pool,
  keys: ServerKeys,
  network: Network,
): Promise<{ address: string; secret: string }> {
  const row = (
    await db.query('select address, secret_enc from hot_wallets where blockchain_key = $1', [network.key])
  ).rows[0];
  if (row) return { address: row.address, secret: decrypt(keys, row.secret_enc) };
  const created = await network.chain.createAddress();
  const inserted = await db.query(
    `insert into hot_wallets (blockchain_key, address, secret_enc) values ($1, $2, $3)
     on conflict (blockchain_key) do nothing`,
    [network.key, created.address, encrypt(keys, created.secret)],
  );
  return inserted.rowCount === 1 ? created : hotWallet(db, keys, network);
}
