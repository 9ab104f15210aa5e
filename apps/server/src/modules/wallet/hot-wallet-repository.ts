import type pg from 'pg';
import type { SelectOne, Tx } from '../../db/pool.ts';

/** The wallet's SQL on the hot wallet's bounds (`wallet_limits`) and its transfers to cold storage. */
type Db = pg.Pool | Tx;

/** A currency's hot wallet bounds on a network (exact decimals; null where unset) and its cold address. */
export interface WalletLimitRow {
  currency_id: string;
  hot_max: string | null;
  hot_min: string | null;
  /** The network's watch-only cold address; null when none is configured. */
  cold: string | null;
}

/** The hot wallet's bounds of each currency with bounds on the network. */
export async function walletLimits(db: Db, key: string): Promise<WalletLimitRow[]> {
  return (
    await db.query<WalletLimitRow>(
      `select l.currency_id, l.hot_max::text, l.hot_min::text, c.address as cold
       from wallet_limits l left join cold_wallets c on c.blockchain_key = l.blockchain_key
       where l.blockchain_key = $1`,
      [key],
    )
  ).rows;
}

/** Whether a transfer of `currency` to cold storage is pending on the network. */
export async function coldTransferPending(db: Db, key: string, currency: string): Promise<boolean> {
  const pending = await db.query<SelectOne>(
    `select 1 from custody_transfers where blockchain_key = $1 and currency_id = $2 and kind = 'cold' and state = 'pending'`,
    [key, currency],
  );
  return Boolean(pending.rowCount);
}

/** Records a broadcast transfer of `amount` (an exact decimal) from the hot wallet to cold storage. */
export async function insertColdTransfer(
  db: Db,
  t: { key: string; currency: string; from: string; to: string; amount: string; txid: string },
): Promise<void> {
  await db.query(
    `insert into custody_transfers (blockchain_key, kind, currency_id, from_addresses, to_address, amount, txid)
           values ($1, 'cold', $2, $3, $4, $5, $6)`,
    [t.key, t.currency, [t.from], t.to, t.amount, t.txid],
  );
}
