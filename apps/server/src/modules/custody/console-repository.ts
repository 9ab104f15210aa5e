import type {
  CustodyAlertEntity,
  CustodyLimitsEntity,
  CustodyRefusalEntity,
  CustodyTransferEntity,
} from '@exchange/shared';
import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';
import { isoSql } from '../identity/users-repository.ts';

/** The SQL of the console's custody view: wallet tiers, alerts, our own transfers and the signer's refusals. */

type Db = pg.Pool | Tx;

/** How many transfers and refusals the view lists. */
export const RECENT_TRANSFERS = 100;
export const RECENT_REFUSALS = 50;

/** The cold (watch-only) address of each network that has one. */
export async function coldAddresses(db: Db): Promise<Map<string, string>> {
  const rows = await db.query<{ blockchain_key: string; address: string }>(
    'select blockchain_key, address from cold_wallets',
  );
  return new Map(rows.rows.map((r) => [r.blockchain_key as string, r.address as string]));
}

/** Every bound, keyed `network/currency`. */
export async function allLimits(db: Db): Promise<Map<string, CustodyLimitsEntity>> {
  const rows = await db.query<CustodyLimitsEntity>(
    `select blockchain_key, currency_id as currency, trim_scale(hot_min)::text as hot_min,
       trim_scale(hot_max)::text as hot_max from wallet_limits`,
  );
  return new Map(rows.rows.map((r) => [`${r.blockchain_key}/${r.currency}`, r]));
}

/** The bounds of one currency on one network, locked for a change; null when none are set. */
export async function lockLimits(tx: Tx, key: string, currency: string): Promise<CustodyLimitsEntity | null> {
  const row = (
    await tx.query<CustodyLimitsEntity>(
      `select blockchain_key, currency_id as currency, trim_scale(hot_min)::text as hot_min,
         trim_scale(hot_max)::text as hot_max
       from wallet_limits where blockchain_key = $1 and currency_id = $2 for update`,
      [key, currency],
    )
  ).rows[0];
  return row ?? null;
}

/** Sets the bounds (both null removes the row); returns them as stored. */
export async function saveLimits(
  tx: Tx,
  key: string,
  currency: string,
  hotMin: string | null,
  hotMax: string | null,
): Promise<CustodyLimitsEntity | null> {
  if (hotMin === null && hotMax === null) {
    await tx.query('delete from wallet_limits where blockchain_key = $1 and currency_id = $2', [
      key,
      currency,
    ]);
    return null;
  }
  await tx.query(
    `insert into wallet_limits (blockchain_key, currency_id, hot_min, hot_max) values ($1, $2, $3, $4)
     on conflict (blockchain_key, currency_id) do update set hot_min = excluded.hot_min, hot_max = excluded.hot_max`,
    [key, currency, hotMin, hotMax],
  );
  return lockLimits(tx, key, currency);
}

/**
 * Whether the blockchain exists, and the currency's precision on it (null when the network does not carry it).
 * Read from the database, so bounds can be set for a network whose node is not answering right now.
 */
export async function networkCurrency(
  db: Db,
  key: string,
  currency: string,
): Promise<{ exists: boolean; precision: number | null }> {
  const row = (
    await db.query<{ precision: number | null }>(
      `select c.precision from blockchains b
       left join currency_networks n on n.blockchain_key = b.key and n.currency_id = $2
       left join currencies c on c.id = n.currency_id
       where b.key = $1`,
      [key, currency],
    )
  ).rows[0];
  return { exists: row !== undefined, precision: row?.precision ?? null };
}

const ALERT_COLUMNS = `id::int, blockchain_key as network, kind, detail, ${isoSql('created_at')} as created_at`;

/** The open chain alerts, newest first. */
export async function openAlerts(db: Db): Promise<CustodyAlertEntity[]> {
  return (
    await db.query<CustodyAlertEntity>(
      `select ${ALERT_COLUMNS} from chain_alerts where resolved_at is null order by id desc`,
    )
  ).rows;
}

/** Resolves an open alert; returns it as it was, or null when there is no open alert with this id. */
export async function resolveAlert(tx: Tx, id: number): Promise<CustodyAlertEntity | null> {
  const row = (
    await tx.query<CustodyAlertEntity>(
      `update chain_alerts set resolved_at = now() where id = $1 and resolved_at is null
       returning ${ALERT_COLUMNS}`,
      [id],
    )
  ).rows[0];
  return row ?? null;
}

/** The latest custody transfers, newest first, with the explorer's link where the network has one. */
export async function recentTransfers(db: Db): Promise<CustodyTransferEntity[]> {
  const rows = await db.query<
    Omit<CustodyTransferEntity, 'explorer_link'> & { explorer_transaction: string | null }
  >(
    `select t.id::int, t.blockchain_key as network, t.kind, t.currency_id as currency, t.from_addresses,
       t.to_address, trim_scale(t.amount)::text as amount, t.txid, t.state, b.explorer_transaction,
       ${isoSql('t.created_at')} as created_at
     from custody_transfers t left join blockchains b on b.key = t.blockchain_key
     order by t.id desc limit $1`,
    [RECENT_TRANSFERS],
  );
  return rows.rows.map(({ explorer_transaction, ...transfer }) => ({
    ...transfer,
    explorer_link: explorerLink(explorer_transaction, transfer.txid),
  }));
}

/** The network's `#{txid}` template filled in; null without a template. */
export function explorerLink(template: string | null, txid: string): string | null {
  if (!template?.includes('#{txid}')) return null;
  return template.replace('#{txid}', encodeURIComponent(txid));
}

/** The signer's latest refusals, newest first. */
export async function recentRefusals(db: Db): Promise<CustodyRefusalEntity[]> {
  return (
    await db.query<CustodyRefusalEntity>(
      `select id::int, blockchain_key as network, purpose, reference, reason, currency_id as currency,
         trim_scale(amount)::text as amount, destination, ${isoSql('created_at')} as created_at
       from signer_log where decision = 'refused' order by id desc limit $1`,
      [RECENT_REFUSALS],
    )
  ).rows;
}
