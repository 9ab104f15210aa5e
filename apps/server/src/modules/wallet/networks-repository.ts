import type pg from 'pg';
import type { NoRows, Tx } from '../../db/pool.ts';

/** The wallet's SQL on networks: `blockchains`, their currencies (`currency_networks`) and `chain_endpoints`. */
type Db = pg.Pool | Tx;

/** An active network as the chain registry builds it. */
export interface ActiveChainRow {
  key: string;
  client: string;
  min_confirmations: number;
  explorer_transaction: string | null;
  /** Currency id to precision, of the currencies on the network; null when it has none. */
  currencies: Record<string, number> | null;
}

/** The active networks, by key, each with its currencies and their precision. */
export async function activeChains(db: Db): Promise<ActiveChainRow[]> {
  return (
    await db.query<ActiveChainRow>(
      `select b.key, b.client, b.min_confirmations, b.explorer_transaction,
         json_object_agg(c.id, c.precision) filter (where c.id is not null) as currencies
       from blockchains b
       left join currency_networks n on n.blockchain_key = b.key
       left join currencies c on c.id = n.currency_id
       where b.status = 'active' group by b.key order by b.key`,
    )
  ).rows;
}

/**
 * Sets a network's explorer templates where it has none (neither template set).
 * @returns whether it set them.
 */
export async function fillExplorerTemplates(
  db: Db,
  key: string,
  templates: { transaction: string; address: string },
): Promise<boolean> {
  const filled = await db.query<NoRows>(
    `update blockchains set explorer_transaction = $2, explorer_address = $3
     where key = $1 and explorer_transaction is null and explorer_address is null`,
    [key, templates.transaction, templates.address],
  );
  return Boolean(filled.rowCount);
}

/** Records the contract of a network's ERC-20 currencies (a devnet's deployed TestUSDT). */
export async function setErc20Contract(db: Db, key: string, contract: string): Promise<void> {
  await db.query(
    `update currency_networks set contract_address = $2 where blockchain_key = $1 and protocol = 'ERC20'`,
    [key, contract],
  );
}

/** Records the contract of a network's TRC-20 currencies, where it differs from the one recorded. */
export async function setTrc20Contract(db: Db, key: string, contract: string): Promise<void> {
  await db.query(
    `update currency_networks set contract_address = $2 where blockchain_key = $1 and protocol = 'TRC20'
       and contract_address is distinct from $2`,
    [key, contract],
  );
}

/** A network's ERC-20 currencies and their contract (null where none is recorded). */
export async function erc20Contracts(
  db: Db,
  key: string,
): Promise<{ currency_id: string; contract_address: string | null }[]> {
  return (
    await db.query<{ currency_id: string; contract_address: string | null }>(
      `select currency_id, contract_address from currency_networks where blockchain_key = $1 and protocol = 'ERC20'`,
      [key],
    )
  ).rows;
}

/** Records where this process serves a development node, for the other roles and the command line. */
export async function recordEndpoint(db: Db, key: string, url: string): Promise<void> {
  await db.query(
    `insert into chain_endpoints (blockchain_key, url) values ($1, $2)
     on conflict (blockchain_key) do update set url = excluded.url, updated_at = now()`,
    [key, url],
  );
}

/** Where a running app serves a network's development node, if it recorded one. */
export async function recordedEndpoint(db: Db, key: string): Promise<string | undefined> {
  return (await db.query<{ url: string }>('select url from chain_endpoints where blockchain_key = $1', [key]))
    .rows[0]?.url;
}

/**
 * The network's native currency: the first of its currencies without a token contract or token protocol (by id),
 * else its first currency; undefined when it has none.
 */
export async function nativeCurrencyOn(db: Db, key: string): Promise<string | undefined> {
  return (
    await db.query<{ currency_id: string }>(
      `select currency_id from currency_networks where blockchain_key = $1
       order by (contract_address is null and coalesce(protocol, '') not like '%20') desc, id limit 1`,
      [key],
    )
  ).rows[0]?.currency_id;
}
