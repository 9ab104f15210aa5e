import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';

/** The wallet's SQL on operators' balance adjustments (`adjustments`). */
type Db = pg.Pool | Tx;

/** The precision of the currency `id`, or undefined for an unknown currency. */
export async function currencyPrecision(db: Db, id: string): Promise<number | undefined> {
  return (await db.query<{ precision: number }>('select precision from currencies where id = $1', [id]))
    .rows[0]?.precision;
}

/** The id (bigint, as text) of the user whose email is `email` in any case, or undefined. */
export async function userIdByEmail(db: Db, email: string): Promise<string | undefined> {
  return (await db.query<{ id: string }>('select id from users where lower(email) = lower($1)', [email]))
    .rows[0]?.id;
}

/**
 * Records a `pending` adjustment of `amount` (an exact decimal, negative for a debit).
 * @returns its id (bigint, as text).
 */
export async function insertAdjustment(
  db: Db,
  a: { userId: string; currency: string; amount: string; reason: string },
): Promise<string> {
  const row = (
    await db.query<{ id: string }>(
      'insert into adjustments (user_id, currency_id, amount, reason) values ($1, $2, $3, $4) returning id',
      [a.userId, a.currency, a.amount, a.reason],
    )
  ).rows[0];
  if (!row) throw new Error('the adjustment was not recorded');
  return row.id;
}

/** A pending adjustment to apply (ids bigint, as text; the amount an exact decimal, negative for a debit). */
export interface PendingAdjustmentRow {
  id: string;
  user_id: string;
  currency_id: string;
  amount: string;
}

/** The oldest pending adjustments, at most 100. */
export async function pendingAdjustments(db: Db): Promise<PendingAdjustmentRow[]> {
  return (
    await db.query<PendingAdjustmentRow>(
      `select id, user_id, currency_id, amount::text from adjustments where state = 'pending' order by id limit 100`,
    )
  ).rows;
}

/** Records a pending adjustment's outcome (a settled one is left as it is). */
export async function settleAdjustment(
  db: Db,
  id: string | number,
  state: 'accepted' | 'rejected',
): Promise<void> {
  await db.query(
    `update adjustments set state = $2, updated_at = now() where id = $1 and state = 'pending'`,
    [id, state],
  );
}

/** The state of the adjustment `id`, or undefined when there is none. */
export async function adjustmentState(db: Db, id: number): Promise<string | undefined> {
  return (await db.query<{ state: string }>('select state from adjustments where id = $1', [id])).rows[0]
    ?.state;
}
