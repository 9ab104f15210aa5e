import type pg from 'pg';

/** A legacy deposit key still to sweep and retire, with its network's client kind. */
export interface LegacyKeyRow {
  blockchain_key: string;
  address: string;
  /** The key's secret, sealed with the server key; null once retired (never for a row listed here). */
  secret_enc: string | null;
  client: string;
}

/**
 * The legacy deposit keys not yet retired, by network and address. Read with the schema owner's connection: the
 * app's role cannot read this table.
 */
export async function unretiredLegacyKeys(owner: pg.Pool): Promise<LegacyKeyRow[]> {
  return (
    await owner.query<LegacyKeyRow>(
      `select k.blockchain_key, k.address, k.secret_enc, b.client from legacy_wallet_keys k
       join blockchains b on b.key = k.blockchain_key where k.retired_at is null order by k.blockchain_key, k.address`,
    )
  ).rows;
}

/** Retires a legacy key: its sealed secret is deleted, the row keeps when. */
export async function retireLegacyKey(owner: pg.Pool, network: string, address: string): Promise<void> {
  await owner.query(
    `update legacy_wallet_keys set secret_enc = null, retired_at = now() where blockchain_key = $1 and address = $2`,
    [network, address],
  );
}

/** The network's ERC-20 tokens with a contract address: what a legacy key may hold besides the coin. */
export async function erc20Tokens(
  db: pg.Pool,
  network: string,
): Promise<{ currency: string; contract: string }[]> {
  return (
    await db.query<{ currency: string; contract: string }>(
      `select currency_id as currency, contract_address as contract from currency_networks
       where blockchain_key = $1 and protocol = 'ERC20' and contract_address is not null`,
      [network],
    )
  ).rows;
}
