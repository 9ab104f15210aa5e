import type pg from 'pg';
import type { SelectOne, Tx } from '../../db/pool.ts';

/** The wallet's SQL for the collector: credited deposits to sweep and our own movements (`custody_transfers`). */
type Db = pg.Pool | Tx;

/** A credited deposit waiting to be swept (ids bigint, as text). */
export interface AcceptedDepositRow {
  id: string;
  user_id: string;
  currency_id: string;
  address: string;
}

/** The network's credited (`accepted`) deposits, oldest first, at most `limit`. */
export async function acceptedDeposits(db: Db, key: string, limit: number): Promise<AcceptedDepositRow[]> {
  return (
    await db.query<AcceptedDepositRow>(
      `select id, user_id, currency_id, address from deposits
       where blockchain_key = $1 and state = 'accepted' order by id limit ${limit}`,
      [key],
    )
  ).rows;
}

/** Marks the deposits `collecting` (their sweep is about to be broadcast). */
export async function markCollecting(db: Db, ids: number[]): Promise<void> {
  await db.query(`update deposits set state = 'collecting', updated_at = now() where id = any($1)`, [ids]);
}

/**
 * Records a broadcast sweep of `amount` (an exact decimal) from `from` to the hot wallet.
 * @returns its id (bigint, as text).
 */
export async function insertSweep(
  db: Db,
  t: { key: string; currency: string; from: string[]; to: string; amount: string; txid: string },
): Promise<string> {
  const row = (
    await db.query<{ id: string }>(
      `insert into custody_transfers (blockchain_key, kind, currency_id, from_addresses, to_address, amount, txid)
             values ($1, 'sweep', $2, $3, $4, $5, $6) returning id`,
      [t.key, t.currency, t.from, t.to, t.amount, t.txid],
    )
  ).rows[0];
  if (!row) throw new Error(`the sweep ${t.txid} was not recorded`);
  return row.id;
}

/** Marks the deposits `collected` by the sweep `transferId`. */
export async function markCollected(db: Db, ids: number[], transferId: string): Promise<void> {
  await db.query(
    `update deposits set state = 'collected', custody_transfer_id = $2, updated_at = now() where id = any($1)`,
    [ids, transferId],
  );
}

/** Marks the deposits still `collecting` among `ids` `errored`, with `note`. */
export async function markCollectingErrored(db: Db, ids: number[], note: string): Promise<void> {
  await db.query(
    `update deposits set state = 'errored', note = $2, updated_at = now()
         where id = any($1) and state = 'collecting'`,
    [ids, note],
  );
}

/** Whether a gas top-up to `address` is pending on the network. */
export async function gasTransferPending(db: Db, key: string, address: string): Promise<boolean> {
  const pending = await db.query<SelectOne>(
    `select 1 from custody_transfers where blockchain_key = $1 and kind = 'gas' and state = 'pending' and to_address = $2`,
    [key, address],
  );
  return pending.rowCount !== 0;
}

/** Records a broadcast gas top-up of `amount` (an exact decimal) from the hot wallet to a deposit address. */
export async function insertGasTransfer(
  db: Db,
  t: { key: string; currency: string; from: string; to: string; amount: string; txid: string },
): Promise<void> {
  await db.query(
    `insert into custody_transfers (blockchain_key, kind, currency_id, from_addresses, to_address, amount, txid)
         values ($1, 'gas', $2, $3, $4, $5, $6)`,
    [t.key, t.currency, [t.from], t.to, t.amount, t.txid],
  );
}

/** The network's pending movements of ours, oldest first, at most 200 (ids bigint, as text). */
export async function pendingCustodyTransfers(db: Db, key: string): Promise<{ id: string; txid: string }[]> {
  return (
    await db.query<{ id: string; txid: string }>(
      `select id, txid from custody_transfers where blockchain_key = $1 and state = 'pending' order by id limit 200`,
      [key],
    )
  ).rows;
}

/** Records how a movement of ours ended. */
export async function settleCustodyTransfer(
  db: Db,
  id: string,
  state: 'confirmed' | 'failed',
): Promise<void> {
  await db.query(`update custody_transfers set state = $2, updated_at = now() where id = $1`, [id, state]);
}

/** Moves the deposits to `state` with `note`. */
export async function setDepositsState(db: Db, ids: number[], state: string, note: string): Promise<void> {
  await db.query(`update deposits set state = $2, note = $3, updated_at = now() where id = any($1)`, [
    ids,
    state,
    note,
  ]);
}
