import {
  ADMIN_WITHDRAW_ERRORS,
  parseUnits,
  type WithdrawLimitEntity,
  type WithdrawLimitInput,
} from '@exchange/shared';
import type pg from 'pg';
import { withTransaction } from '../../db/pool.ts';
import { AppError } from '../../http/errors.ts';
import type { Staff } from './access.ts';
import { currencyPrecision } from './markets-repository.ts';
import { recordStaffAction } from './trail.ts';
import {
  deleteWithdrawLimit,
  lockWithdrawLimit,
  upsertWithdrawLimit,
  withdrawLimits,
} from './withdraw-limits-repository.ts';

const invalid = (code: string) => new AppError(422, [code]);

/** Every limit, by currency then level. */
export function listWithdrawLimits(db: pg.Pool): Promise<WithdrawLimitEntity[]> {
  return withdrawLimits(db);
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
  const precision = await currencyPrecision(db, input.currency);
  if (precision === undefined) throw invalid(ADMIN_WITHDRAW_ERRORS.limitInvalidCurrency);
  for (const amount of [input.per_withdrawal, input.per_day]) {
    if (amount === null) continue;
    const parsed = parseUnits(amount, precision);
    if (!parsed.ok || parsed.units <= 0n) throw invalid(ADMIN_WITHDRAW_ERRORS.limitInvalidAmount);
  }
  return withTransaction(db, async (tx) => {
    const before = (await lockWithdrawLimit(tx, input.level, input.currency)) ?? null;
    const remove = input.per_withdrawal === null && input.per_day === null;
    if (remove) await deleteWithdrawLimit(tx, input.level, input.currency);
    const after = remove ? null : ((await upsertWithdrawLimit(tx, input)) ?? null);
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
