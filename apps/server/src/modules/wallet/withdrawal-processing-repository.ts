import type pg from 'pg';
import type { NoRows, Tx } from '../../db/pool.ts';

/** The wallet's SQL for the withdrawal processor: which withdrawals need a step, and their failure. */
type Db = pg.Pool | Tx;

/** A withdrawal and its owner (ids bigint, as text). */
export interface WithdrawalRef {
  id: string;
  user_id: string;
}

/** Marks every `processing` withdrawal `errored` (interrupted during its broadcast). @returns those it marked. */
export async function erroredInterrupted(db: Db): Promise<WithdrawalRef[]> {
  return (
    await db.query<WithdrawalRef>(
      `update withdrawals set state = 'errored', error = 'interrupted during broadcast', updated_at = now()
       where state = 'processing' returning id, user_id`,
    )
  ).rows;
}

/** Rejected withdrawals whose hold the core still keeps, oldest first, at most 50. */
export async function rejectedStillHeld(db: Db): Promise<WithdrawalRef[]> {
  return (
    await db.query<WithdrawalRef>(
      // From the open holds (few) to their withdrawals by primary key: no scan of every withdrawal each tick.
      `select w.id, w.user_id from withdrawal_holds h
       join withdrawals w on w.id = (case when h.withdrawal_id ~ '^w[0-9]+$' then substr(h.withdrawal_id, 2)::bigint end)
       where w.state = 'rejected' order by w.id limit 50`,
    )
  ).rows;
}

/** Accepted internal transfers not settled within a minute, oldest first, at most 50. */
export async function unsettledInternal(db: Db): Promise<(WithdrawalRef & { internal_user_id: string })[]> {
  return (
    await db.query<WithdrawalRef & { internal_user_id: string }>(
      `select id, user_id, internal_user_id from withdrawals where state = 'accepted' and internal_user_id is not null
         and updated_at < now() - interval '1 minute' order by id limit 50`,
    )
  ).rows;
}

/** Errored withdrawals an operator resolved as failed (never sent), oldest first, at most 50. */
export async function resolvedAsFailed(db: Db): Promise<WithdrawalRef[]> {
  return (
    await db.query<WithdrawalRef>(
      `select id, user_id from withdrawals where state = 'errored' and resolution = 'failed' order by id limit 50`,
    )
  ).rows;
}

/** An accepted external withdrawal to broadcast (amounts exact decimals). */
export interface BroadcastRow extends WithdrawalRef {
  currency_id: string;
  blockchain_key: string;
  rid: string;
  memo: string | null;
  amount: string;
  fee: string;
}

/** Accepted external withdrawals, oldest first, at most 50. */
export async function toBroadcast(db: Db): Promise<BroadcastRow[]> {
  return (
    await db.query<BroadcastRow>(
      `select id, user_id, currency_id, blockchain_key, rid, memo, amount::text, fee::text from withdrawals
       where state = 'accepted' and internal_user_id is null order by id limit 50`,
    )
  ).rows;
}

/** A broadcast withdrawal to follow to its confirmations (the fee an exact decimal). */
export interface ConfirmingRow extends WithdrawalRef {
  currency_id: string;
  blockchain_key: string;
  txid: string;
  fee: string;
}

/** Confirming withdrawals, oldest first, at most 200. */
export async function confirmingWithdrawals(db: Db): Promise<ConfirmingRow[]> {
  return (
    await db.query<ConfirmingRow>(
      `select id, user_id, currency_id, blockchain_key, txid, fee::text from withdrawals
       where state = 'confirming' order by id limit 200`,
    )
  ).rows;
}

/** Marks a withdrawal `failed` with `reason`, from `from` only. @returns whether it was in `from`. */
export async function markWithdrawalFailed(
  db: Db,
  id: number,
  reason: string,
  from: string,
): Promise<boolean> {
  const updated = await db.query<NoRows>(
    `update withdrawals set state = 'failed', error = $2, updated_at = now() where id = $1 and state = $3`,
    [id, reason, from],
  );
  return updated.rowCount === 1;
}
