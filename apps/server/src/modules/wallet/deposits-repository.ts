import type { IncomingTravelRuleStatus } from '@exchange/shared';
import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';

/** The wallet's SQL on chain deposits (`deposits`). */
type Db = pg.Pool | Tx;

/**
 * Settles a `submitted` deposit as the core answered: `accepted` (stamping `credited_at` with `at`, the app's
 * clock, on which the withdrawal review's pass-through window reads it) or `errored` with the core's code as its
 * note. A deposit in another state is left as it is.
 */
export async function settleSubmittedDeposit(
  db: Db,
  id: number | string,
  outcome: { ok: true } | { ok: false; code: string | null },
  at: Date,
): Promise<void> {
  await db.query(
    `update deposits set state = $2, credited_at = case when $3 then $5::timestamptz end, note = $4, updated_at = now()
     where id = $1 and state = 'submitted'`,
    [id, outcome.ok ? 'accepted' : 'errored', outcome.ok, outcome.ok ? null : outcome.code, at],
  );
}

/** A deposit and its owner (ids bigint, as text). */
export interface DepositRef {
  id: string;
  user_id: string;
}

/** The network's recorded deposits not yet at the threshold: in a block above `above`, oldest first. */
export async function depositsInBlocksAbove(db: Db, key: string, above: number): Promise<DepositRef[]> {
  return (
    await db.query<DepositRef>(
      `select id, user_id from deposits
       where blockchain_key = $1 and state = 'submitted' and block_height is not null and block_height > $2
       order by id`,
      [key, above],
    )
  ).rows;
}

/** The network's credited deposits in blocks above `height` (the amount an exact decimal). */
export async function creditedDepositsAbove(
  db: Db,
  key: string,
  height: number,
): Promise<(DepositRef & { txid: string; amount: string })[]> {
  return (
    await db.query<DepositRef & { txid: string; amount: string }>(
      `select id, user_id, txid, amount::text from deposits
         where blockchain_key = $1 and block_height > $2 and credited_at is not null`,
      [key, height],
    )
  ).rows;
}

/** Cancels the network's uncredited deposits in blocks above `height` (a reorg). @returns those it cancelled. */
export async function cancelDepositsAbove(db: Db, key: string, height: number): Promise<DepositRef[]> {
  return (
    await db.query<DepositRef>(
      `update deposits set state = 'canceled', note = 'reorg', block_height = null, block_hash = null, updated_at = now()
         where blockchain_key = $1 and block_height > $2 and credited_at is null returning id, user_id`,
      [key, height],
    )
  ).rows;
}

/** A transfer to one of our deposit addresses, seen in a block. */
export interface SeenDeposit {
  userId: number;
  currency: string;
  key: string;
  address: string;
  txid: string;
  txout: number;
  /** Exact decimal. */
  amount: string;
  blockHeight: number;
  blockHash: string;
  from: string | null;
  /**
   * When it was first seen, on the app's clock: its `created_at`, from which the travel rule's wait for the
   * originator's information runs (measured on that clock).
   */
  seenAt: Date;
}

/**
 * Records a deposit seen in a block, or moves a known one to that block (one cancelled by a reorg is submitted
 * again). @returns its id (bigint, as text).
 */
export async function recordSeenDeposit(db: Db, d: SeenDeposit): Promise<string> {
  const row = (
    await db.query<{ id: string }>(
      `insert into deposits (user_id, currency_id, blockchain_key, address, txid, txout, amount, block_height, block_hash,
                                   from_address, created_at)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
             on conflict (blockchain_key, txid, txout) do update
               set block_height = excluded.block_height, block_hash = excluded.block_hash, updated_at = now(),
                   state = case when deposits.state = 'canceled' and deposits.note = 'reorg' then 'submitted' else deposits.state end,
                   note = case when deposits.state = 'canceled' and deposits.note = 'reorg' then null else deposits.note end
             returning id`,
      [
        d.userId,
        d.currency,
        d.key,
        d.address,
        d.txid,
        d.txout,
        d.amount,
        d.blockHeight,
        d.blockHash,
        d.from,
        d.seenAt,
      ],
    )
  ).rows[0];
  if (!row) throw new Error(`the deposit ${d.txid}:${d.txout} was not recorded`);
  return row.id;
}

/** A deposit at its confirmation threshold, with its network's minimum (amounts exact decimals). */
export interface ReadyDepositRow extends DepositRef {
  currency_id: string;
  amount: string;
  min: string;
  blockchain_key: string;
  txid: string;
  address: string;
  from_address: string | null;
  created_at: Date;
  travel_rule_status: IncomingTravelRuleStatus | null;
  travel_rule_checked_at: Date | null;
}

/** The network's submitted deposits in blocks up to `height`, oldest first. */
export async function depositsReady(db: Db, key: string, height: number): Promise<ReadyDepositRow[]> {
  return (
    await db.query<ReadyDepositRow>(
      `select d.id, d.user_id, d.currency_id, trim_scale(d.amount)::text as amount, n.min_deposit_amount::text as min,
              d.blockchain_key,
              d.txid, d.address, d.from_address, d.created_at, d.travel_rule_status, d.travel_rule_checked_at
       from deposits d join currency_networks n on n.currency_id = d.currency_id and n.blockchain_key = d.blockchain_key
       where d.blockchain_key = $1 and d.state = 'submitted' and d.block_height is not null and d.block_height <= $2
       order by d.id`,
      [key, height],
    )
  ).rows;
}

/** Rejects a deposit under its network's minimum. */
export async function rejectBelowMinimum(db: Db, id: string): Promise<void> {
  await db.query(
    `update deposits set state = 'rejected', note = 'below the minimum deposit', updated_at = now() where id = $1`,
    [id],
  );
}
