import { CLOSURE_RETENTION_YEARS } from '@exchange/shared';
import type pg from 'pg';
import type { NoRows, Tx } from '../../db/pool.ts';
import type { TravelRuleBeneficiary } from '../compliance/travel-rule/withdrawal-check.ts';

type Db = pg.Pool | Tx;

/** A closure row as the service reads it. */
export interface ClosureRow {
  id: number;
  user_id: string;
  state: 'open' | 'canceled' | 'closed';
  requested_at: Date;
  conversion_due_at: Date;
  closed_at: Date | null;
  records_erase_at: Date | null;
  correspondence_erase_at: Date | null;
}

/** A withdrawal made for a closure. */
export interface ClosureWithdrawal {
  id: number;
  currency_id: string;
  blockchain_key: string;
  state: string;
  amount: string;
  fee: string;
  rid: string;
}

/** Withdrawal states after which the funds left for good (`succeed`) or came back (the others). */
export const WITHDRAWAL_FINAL = ['succeed', 'rejected', 'canceled', 'failed', 'skipped'] as const;
/** Withdrawal states in which nothing left the account: the funds came back or were never sent. */
export const WITHDRAWAL_RETURNED = ['rejected', 'canceled', 'failed', 'skipped'] as const;

const COLUMNS =
  'id::int, user_id::text, state, requested_at, conversion_due_at, closed_at, records_erase_at, correspondence_erase_at';

/** The user's closure under way, if any. */
export async function openClosure(db: Db, userId: string): Promise<ClosureRow | null> {
  const row = (
    await db.query<ClosureRow>(
      `select ${COLUMNS} from account_closures where user_id = $1 and state = 'open'`,
      [userId],
    )
  ).rows[0];
  return row ?? null;
}

/**
 * Records a closure request made at `at` (the app's clock), its balances due for conversion 30 days later (the
 * closure queue reads that date on the same clock); returns it.
 */
export async function insertClosure(tx: Tx, userId: string, at: Date): Promise<ClosureRow> {
  return (
    await tx.query<ClosureRow>(
      `insert into account_closures (user_id, requested_at, conversion_due_at)
       values ($1, $2, $2::timestamptz + interval '30 days')
       returning ${COLUMNS}`,
      [userId, at],
    )
  ).rows[0]!;
}

/** Links a withdrawal to the closure that made it. */
export async function linkWithdrawal(db: Db, closureId: number, withdrawalId: number): Promise<void> {
  await db.query('insert into account_closure_withdrawals (closure_id, withdrawal_id) values ($1, $2)', [
    closureId,
    withdrawalId,
  ]);
}

/** The closure's withdrawals, newest first. */
export async function closureWithdrawals(db: Db, closureId: number): Promise<ClosureWithdrawal[]> {
  return (
    await db.query<ClosureWithdrawal>(
      `select w.id::int, w.currency_id, w.blockchain_key, w.state, trim_scale(w.amount)::text as amount,
              trim_scale(w.fee)::text as fee, w.rid
         from account_closure_withdrawals l join withdrawals w on w.id = l.withdrawal_id
        where l.closure_id = $1 order by w.id desc`,
      [closureId],
    )
  ).rows;
}

/** How many withdrawals of the user (any, not only the closure's) are still on their way. */
export async function withdrawalsInFlight(db: Db, userId: string): Promise<number> {
  const row = (
    await db.query<{ n: number }>(
      'select count(*)::int as n from withdrawals where user_id = $1 and state <> all($2)',
      [userId, WITHDRAWAL_FINAL],
    )
  ).rows[0]!;
  return row.n;
}

/** Cancels the closure at `at` if it is still open; false when it was not. */
export async function cancelClosure(tx: Tx, id: number, at: Date): Promise<boolean> {
  const done = await tx.query<NoRows>(
    `update account_closures set state = 'canceled', canceled_at = $2 where id = $1 and state = 'open'`,
    [id, at],
  );
  return done.rowCount === 1;
}

/**
 * Closes the closure and the account: the closure gets its dates (closed at `at`, the app's clock on which the
 * retention erasure reads them; records erased 8 years later, correspondence 5), the user's state becomes `deleted` (every login and session refused) and their API keys
 * inactive (the change feed tells every process). False when the closure was no longer open.
 */
export async function completeClosure(tx: Tx, closure: ClosureRow, at: Date): Promise<boolean> {
  const done = await tx.query<NoRows>(
    `update account_closures set state = 'closed', closed_at = $4,
            records_erase_at = $4::timestamptz + make_interval(years => $2),
            correspondence_erase_at = $4::timestamptz + make_interval(years => $3)
      where id = $1 and state = 'open'`,
    [closure.id, CLOSURE_RETENTION_YEARS.records, CLOSURE_RETENTION_YEARS.correspondence, at],
  );
  if (done.rowCount !== 1) return false;
  await tx.query(`update users set state = 'deleted', updated_at = now() where id = $1`, [closure.user_id]);
  await tx.query(`update api_keys set state = 'inactive', updated_at = now() where user_id = $1`, [
    closure.user_id,
  ]);
  return true;
}

/** The user ids of every closure under way (the sweep's work). */
export async function openClosureUsers(db: Db): Promise<string[]> {
  return (
    await db.query<{ user_id: string }>(`select user_id::text from account_closures where state = 'open'`)
  ).rows.map((r) => r.user_id);
}

/** Precision and the withdrawal rules of a currency on a network; null when there is no such network. */
export async function networkRules(db: Db, currency: string, blockchainKey: string) {
  const row = (
    await db.query<{
      min_withdraw_amount: string;
      withdraw_fee: string;
      withdraw_enabled: boolean;
      precision: number;
    }>(
      `select n.min_withdraw_amount::text, n.withdraw_fee::text, n.withdraw_enabled, c.precision
         from currency_networks n join currencies c on c.id = n.currency_id
        where n.currency_id = $1 and n.blockchain_key = $2`,
      [currency, blockchainKey],
    )
  ).rows[0];
  return row ?? null;
}

/** Each currency's precision. */
export async function precisions(db: Db): Promise<Map<string, number>> {
  const rows = (await db.query<{ id: string; precision: number }>('select id, precision from currencies'))
    .rows;
  return new Map(rows.map((r) => [r.id, r.precision]));
}

/**
 * The closures of one queue filter (`for_conversion` reads the open ones), newest request first, with the
 * currencies already on their way to an address of the user's.
 */
export async function closureQueueRows(
  db: pg.Pool,
  filter: 'open' | 'for_conversion' | 'closed' | 'all',
  limit: number,
) {
  return (
    await db.query<{
      id: number;
      user_id: string;
      uid: string;
      email: string;
      state: ClosureRow['state'];
      requested_at: Date;
      conversion_due_at: Date;
      closed_at: Date | null;
      records_erase_at: Date | null;
      correspondence_erase_at: Date | null;
      sent_currencies: string[];
    }>(
      `select c.id::int, u.id::text as user_id, u.uid, u.email, c.state, c.requested_at, c.conversion_due_at,
              c.closed_at, c.records_erase_at, c.correspondence_erase_at,
              array(select w.currency_id from account_closure_withdrawals l join withdrawals w on w.id = l.withdrawal_id
                     where l.closure_id = c.id and w.state not in ('rejected', 'canceled', 'failed', 'skipped'))
                as sent_currencies
         from account_closures c join users u on u.id = c.user_id
        where ($1 = 'all' or c.state = case when $1 = 'for_conversion' then 'open' else $1 end)
        order by c.requested_at desc limit $2`,
      [filter, limit],
    )
  ).rows;
}

/** A saved address as a closure's plan reads it: its travel-rule columns and its own. */
export type ClosureBeneficiaryRow = TravelRuleBeneficiary & {
  id: number;
  currency_id: string;
  blockchain_key: string;
  memo: string | null;
  state: string;
};

/** The user's saved address with this id, or undefined (another user's id finds nothing). */
export async function closureBeneficiary(
  db: Db,
  beneficiaryId: number,
  userId: string,
): Promise<ClosureBeneficiaryRow | undefined> {
  return (
    await db.query<ClosureBeneficiaryRow>(
      `select id::int, currency_id, blockchain_key, address, memo, state, beneficiary_name, hosting,
             provider_id, provider_name, provider_lei, ownership_proved_at
           from beneficiaries where id = $1 and user_id = $2`,
      [beneficiaryId, userId],
    )
  ).rows[0];
}
