import {
  ADMIN_WITHDRAW_ERRORS,
  parseUnits,
  type WithdrawLimitEntity,
  type WithdrawLimitInput,
} from '@exchange/shared';
import type pg from 'pg';
import { withTransaction } from '../../db/pool.ts';
import { AppError } from '../../http/errors.ts';
import { isoSql } from '../identity/users-repository.ts';
import type { Staff } from './access.ts';
import { recordStaffAction } from './trail.ts';

const invalid = (code: string) => new AppError(422, [code]);

const SELECT = `select level::int, currency_id as currency, trim_scale(per_withdrawal)::text as per_withdrawal,
  trim_scale(per_day)::text as per_day, ${isoSql('updated_at')} as updated_at from withdraw_limits`;

/** Every limit, by currency then level. */
export async function listWithdrawLimits(db: pg.Pool): Promise<WithdrawLimitEntity[]> {
  return (await db.query(`${SELECT} order by currency_id, level`)).rows;
}

/**
 * Sets the limits of one user level and currency (a user's limit is the row of the highest level not above
 * theirs). Both null removes the row. Amounts are checked against the currency's precision; the change and its
 * before/after land in the staff trail together.
 */
export async function setWithdrawLimit(
  db: pg.Pool,
  staff: Staff,
  input: WithdrawLimitInput,
): Promise<WithdrawLimitEntity | null> {
  const currency = (await db.query('select precision from currencies where id = $1', [input.currency]))
    .rows[0];
  if (!currency) throw invalid(ADMIN_WITHDRAW_ERRORS.limitInvalidCurrency);
  for (const amount of [input.per_withdrawal, input.per_day]) {
    if (amount === null) continue;
    const parsed = parseUnits(amount, currency.precision);
    if (!parsed.ok || parsed.units <= 0n) throw invalid(ADMIN_WITHDRAW_ERRORS.limitInvalidAmount);
  }
  const key = [input.level, input.currency];
  return withTransaction(db, async (tx) => {
    const before =
      (await tx.query(`${SELECT} where level = $1 and currency_id = $2 for update`, key)).rows[0] ?? null;
    const remove = input.per_withdrawal === null && input.per_day === null;
    if (remove) await tx.query('delete from withdraw_limits where level = $1 and currency_id = $2', key);
    const after = remove
      ? null
      : (
          await tx.query(
            `insert into withdraw_limits (level, currency_id, per_withdrawal, per_day) values ($1, $2, $3, $4)
             on conflict (level, currency_id)
             do update set per_withdrawal = $3, per_day = $4, updated_at = now()
             returning level::int, currency_id as currency, trim_scale(per_withdrawal)::text as per_withdrawal,
               trim_scale(per_day)::text as per_day, ${isoSql('updated_at')} as updated_at`,
            [...key, input.per_withdrawal, input.per_day],
          )
        ).rows[0];
    await recordStaffAction(
      tx,
      staff,
      'withdraw_limit.set',
      `withdraw_limit:${input.level}:${input.currency}`,
      {
        before,
        after,
      },
    );
    return after;
  });
}
