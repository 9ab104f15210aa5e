import type pg from 'pg';
import { type Clock, dateOf } from '../../clock.ts';
import type { Core } from '../../core/index.ts';
import { settleSubmittedDeposit } from './deposits-repository.ts';

/** A chain deposit about to be credited. */
export interface CreditableDeposit {
  id: number | string;
  user_id: number | string;
  currency_id: string;
  /** In units of the currency. */
  amount: bigint;
}

/**
 * Credits a chain deposit through the core and marks it `accepted` (or `errored` with the core's code), from
 * `submitted` only. The core runs the command id `deposit:<id>` once, so whoever credits (the watcher at its
 * confirmations, compliance releasing a deposit the travel rule held) and however often, the balance moves once.
 * @returns whether the core credited it.
 */
export async function creditDeposit(
  deps: { db: pg.Pool; core: Core; clock: Clock },
  d: CreditableDeposit,
): Promise<boolean> {
  const result = await deps.core.sequencer.submit(
    { type: 'Credit', user: Number(d.user_id), currency: d.currency_id, amount: d.amount, kind: 'deposit' },
    `deposit:${d.id}`,
  );
  await settleSubmittedDeposit(
    deps.db,
    d.id,
    result.ok ? { ok: true } : { ok: false, code: result.code },
    dateOf(deps.clock),
  );
  return result.ok;
}
