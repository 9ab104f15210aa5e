import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';

/** The wallet's SQL on the operator's chain alerts (`chain_alerts`). */
type Db = pg.Pool | Tx;

/** A chain alert (a reorg under a credited deposit, a hot wallet running low, and the like). */
export interface ChainAlertRow {
  /** bigint, as text. */
  id: string;
  blockchain_key: string;
  kind: string;
  /** What was recorded of it (JSON). */
  detail: unknown;
  created_at: Date;
}

/** Every chain alert, oldest first. */
export async function chainAlerts(db: Db): Promise<ChainAlertRow[]> {
  return (
    await db.query<ChainAlertRow>(
      'select id, blockchain_key, kind, detail, created_at from chain_alerts order by id',
    )
  ).rows;
}

/**
 * Raises an alert of `kind` on the network about `currency` (recorded in its detail), unless one of that kind and
 * currency is open there already.
 */
export async function raiseCurrencyAlert(
  db: Db,
  key: string,
  kind: string,
  currency: string,
  detail: Record<string, string>,
): Promise<void> {
  await db.query(
    `insert into chain_alerts (blockchain_key, kind, detail)
       select $1, $2, $3 where not exists (
         select 1 from chain_alerts where blockchain_key = $1 and kind = $2 and detail->>'currency' = $4 and resolved_at is null)`,
    [key, kind, { currency, ...detail }, currency],
  );
}

/** Resolves the network's open `hot_wallet_low` alerts about `currency`. */
export async function resolveHotWalletLow(db: Db, key: string, currency: string): Promise<void> {
  await db.query(
    `update chain_alerts set resolved_at = now()
         where blockchain_key = $1 and kind = 'hot_wallet_low' and detail->>'currency' = $2 and resolved_at is null`,
    [key, currency],
  );
}

/** Raises a `reorg_after_credit` alert: a credited deposit's block left the chain (its credit stands). */
export async function raiseReorgAfterCredit(
  db: Db,
  key: string,
  detail: { deposit_id: number; user_id: number; txid: string; amount: string },
): Promise<void> {
  await db.query(
    `insert into chain_alerts (blockchain_key, kind, detail) values ($1, 'reorg_after_credit', $2)`,
    [key, detail],
  );
}
