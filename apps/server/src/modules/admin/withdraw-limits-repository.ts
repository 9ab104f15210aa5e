import type { WithdrawLimitEntity, WithdrawLimitInput } from '@exchange/shared';
import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';
import { isoSql } from '../identity/users-repository.ts';

/** The SQL of the withdrawal limits per user level and currency, as staff set them. */

type Db = pg.Pool | Tx;

/** A limit as the console shows it (the columns of an insert's `returning` too). */
const COLUMNS = `level::int, currency_id as currency, trim_scale(per_withdrawal)::text as per_withdrawal,
  trim_scale(per_day)::text as per_day, ${isoSql('updated_at')} as updated_at`;

/** Every limit, by currency then level. */
export async function withdrawLimits(db: Db): Promise<WithdrawLimitEntity[]> {
  return (
    await db.query<WithdrawLimitEntity>(`select ${COLUMNS} from withdraw_limits order by currency_id, level`)
  ).rows;
}

/** The limit of a level and currency, locked until the transaction ends, or undefined. */
export async function lockWithdrawLimit(
  tx: Tx,
  level: number,
  currency: string,
): Promise<WithdrawLimitEntity | undefined> {
  return (
    await tx.query<WithdrawLimitEntity>(
      `select ${COLUMNS} from withdraw_limits where level = $1 and currency_id = $2 for update`,
      [level, currency],
    )
  ).rows[0];
}

/** Removes the limit of a level and currency. */
export async function deleteWithdrawLimit(tx: Tx, level: number, currency: string): Promise<void> {
  await tx.query('delete from withdraw_limits where level = $1 and currency_id = $2', [level, currency]);
}

/** Sets (inserts or replaces) the limit of a level and currency: the limit as stored. */
export async function upsertWithdrawLimit(
  tx: Tx,
  limit: WithdrawLimitInput,
): Promise<WithdrawLimitEntity | undefined> {
  return (
    await tx.query<WithdrawLimitEntity>(
      `insert into withdraw_limits (level, currency_id, per_withdrawal, per_day) values ($1, $2, $3, $4)
       on conflict (level, currency_id)
       do update set per_withdrawal = $3, per_day = $4, updated_at = now()
       returning ${COLUMNS}`,
      [limit.level, limit.currency, limit.per_withdrawal, limit.per_day],
    )
  ).rows[0];
}
