import { parseUnits } from '@exchange/shared';
import type pg from 'pg';
import type { Core } from '../../core/index.ts';
import {
  currencyPrecision,
  insertAdjustment,
  pendingAdjustments,
  settleAdjustment,
  userIdByEmail,
} from './adjustments-repository.ts';

/**
 * Records an operator's balance adjustment as `pending` (the command line cannot reach the core, which lives in
 * the app); the app applies it through the core. A negative amount debits.
 * @returns the adjustment id.
 */
export async function requestAdjustment(
  db: pg.Pool,
  email: string,
  currency: string,
  amount: string,
  reason: string,
): Promise<number> {
  const precision = await currencyPrecision(db, currency);
  if (precision === undefined) throw new Error(`unknown currency ${currency}`);
  const parsed = parseUnits(amount.replace(/^-/, ''), precision);
  if (!parsed.ok || parsed.units === 0n)
    throw new Error(`amount must be a non-zero decimal with at most ${precision} decimals`);
  const userId = await userIdByEmail(db, email);
  if (userId === undefined) throw new Error(`no user with email ${email}`);
  return Number(await insertAdjustment(db, { userId, currency, amount, reason }));
}

/**
 * Applies pending adjustments in order as Credit or Debit of kind `adjustment` (double-entry against
 * `external`), each with the client command id `adjustment:<id>` so a crash never applies one twice.
 * A debit larger than the available balance is rejected.
 */
export async function applyPendingAdjustments(
  db: pg.Pool,
  core: Core,
  onChange: (userId: number) => void,
): Promise<void> {
  for (const a of await pendingAdjustments(db)) onChange(await applyAdjustment(db, core, a));
}

/**
 * Applies one `pending` adjustment through the core (client command id `adjustment:<id>`, so at most once
 * whoever applies it) and records the outcome: `accepted`, or `rejected` (a debit above the available balance).
 * @returns the user whose balance it concerns.
 */
export async function applyAdjustment(
  db: pg.Pool,
  core: Core,
  a: { id: string | number; user_id: string | number; currency_id: string; amount: string },
): Promise<number> {
  const negative = a.amount.startsWith('-');
  const parsed = parseUnits(a.amount.replace(/^-/, ''), core.units.precision(a.currency_id));
  const amount = parsed.ok ? parsed.units : 0n;
  const user = Number(a.user_id);
  const result = await core.sequencer.submit(
    negative
      ? { type: 'Debit', user, currency: a.currency_id, amount, kind: 'adjustment' }
      : { type: 'Credit', user, currency: a.currency_id, amount, kind: 'adjustment' },
    `adjustment:${a.id}`,
  );
  await settleAdjustment(db, a.id, result.ok ? 'accepted' : 'rejected');
  return user;
}
