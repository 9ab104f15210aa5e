import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';

/** The wallet's SQL on bank payouts (`fiat_withdrawals`). */
type Db = pg.Pool | Tx;

const SELECT = `select id, currency_id as currency, trim_scale(amount)::text as amount, trim_scale(fee)::text as fee,
  iban, holder, state, bank_ref, created_at, updated_at from fiat_withdrawals`;

/** A fiat withdrawal as the user's list shows it (amounts exact decimals, trimmed; the id bigint, as text). */
export interface FiatWithdrawalRow {
  id: string;
  currency: string;
  amount: string;
  fee: string;
  iban: string;
  holder: string;
  state: string;
  bank_ref: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The precision of the fiat currency `id`, or undefined when there is no such fiat currency. */
export async function fiatPrecision(db: Db, id: string): Promise<number | undefined> {
  return (
    await db.query<{ precision: number }>('select precision from currencies where id = $1 and type = $2', [
      id,
      'fiat',
    ])
  ).rows[0]?.precision;
}

/**
 * Records a new fiat withdrawal of `amount` (an exact decimal).
 * @returns its id (bigint, as text).
 */
export async function insertFiatWithdrawal(
  db: Db,
  w: { userId: string; currency: string; amount: string; iban: string; holder: string },
): Promise<string> {
  const row = (
    await db.query<{ id: string }>(
      `insert into fiat_withdrawals (user_id, currency_id, amount, iban, holder) values ($1, $2, $3, $4, $5) returning id`,
      [w.userId, w.currency, w.amount, w.iban, w.holder],
    )
  ).rows[0];
  if (!row) throw new Error(`the fiat withdrawal of user ${w.userId} was not recorded`);
  return row.id;
}

/** Marks a fiat withdrawal `rejected` by the core, with its code. */
export async function rejectFiatWithdrawal(db: Db, id: number, code: string | null): Promise<void> {
  await db.query(
    `update fiat_withdrawals set state = 'rejected', error = $2, updated_at = now() where id = $1`,
    [id, code],
  );
}

/** Marks a fiat withdrawal `processing` (its amount is held). */
export async function markFiatProcessing(db: Db, id: number): Promise<void> {
  await db.query(`update fiat_withdrawals set state = 'processing', updated_at = now() where id = $1`, [id]);
}

/** Notes an error on a fiat withdrawal, its state unchanged. */
export async function noteFiatError(db: Db, id: number, error: string): Promise<void> {
  await db.query('update fiat_withdrawals set error = $2, updated_at = now() where id = $1', [id, error]);
}

/** Records the bank's reference of a fiat withdrawal's payout. */
export async function setFiatBankRef(db: Db, id: number, bankRef: string): Promise<void> {
  await db.query('update fiat_withdrawals set bank_ref = $2, updated_at = now() where id = $1', [
    id,
    bankRef,
  ]);
}

/** Ends a `processing` fiat withdrawal as `succeed` or `failed`, with the bank's reason. */
export async function finishFiatWithdrawal(
  db: Db,
  id: number,
  state: 'succeed' | 'failed',
  reason: string | null,
): Promise<void> {
  await db.query(
    `update fiat_withdrawals set state = $2, error = $3, updated_at = now() where id = $1 and state = 'processing'`,
    [id, state, reason],
  );
}

/** The state of the user's fiat withdrawal `id`, or undefined when the user has none of that id. */
export async function fiatState(db: Db, id: number, userId: string): Promise<string | undefined> {
  return (
    await db.query<{ state: string }>('select state from fiat_withdrawals where id = $1 and user_id = $2', [
      id,
      userId,
    ])
  ).rows[0]?.state;
}

/** A page of the user's fiat withdrawals, newest first, and how many there are in all. */
export async function fiatPage(
  db: Db,
  userId: string,
  limit: number,
  offset: number,
): Promise<{ total: number; rows: FiatWithdrawalRow[] }> {
  const [rows, count] = await Promise.all([
    db.query<FiatWithdrawalRow>(`${SELECT} where user_id = $1 order by id desc limit $2 offset $3`, [
      userId,
      limit,
      offset,
    ]),
    db.query<{ total: number }>('select count(*)::int as total from fiat_withdrawals where user_id = $1', [
      userId,
    ]),
  ]);
  const counted = count.rows[0];
  if (!counted) throw new Error('the fiat withdrawals count returned no row');
  return { total: counted.total, rows: rows.rows };
}

/** The user's fiat withdrawal `id`, or undefined. */
export async function fiatRow(db: Db, userId: string, id: number): Promise<FiatWithdrawalRow | undefined> {
  return (await db.query<FiatWithdrawalRow>(`${SELECT} where id = $1 and user_id = $2`, [id, userId]))
    .rows[0];
}
