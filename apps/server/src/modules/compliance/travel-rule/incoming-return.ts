import { formatUnits, TRAVEL_RULE_INCOMING_ERRORS, toUnits } from '@exchange/shared';
import type pg from 'pg';
import type { Core } from '../../../core/index.ts';
import { AppError } from '../../../http/errors.ts';
import {
  acceptReturn,
  insertReturnWithdrawal,
  networkFee,
  preparedReturn,
  staleReturns,
  withdrawalIsReturn,
} from './return-repository.ts';

/** What starting a return needs: the database, the core, and the customer's withdrawal stream. */
export interface ReturnDeps {
  db: pg.Pool;
  core: Core;
  onChange?: (userId: number, withdrawalId: number) => void;
}

/** The held deposit being returned, as the decision read it (locked `for update`). */
export interface ReturnedDeposit {
  id: number;
  user_id: string | number;
  currency_id: string;
  blockchain_key: string | null;
  amount: string;
  from_address: string | null;
}

/** The note the customer's withdrawal history shows on a return. */
export const RETURN_NOTE = 'travel rule: returned to the sender';

/**
 * Records the return of a held deposit to its sender, inside the decision's transaction (the deposit row locked:
 * two decisions at once return it once; the unique index on `travel_rule_return_of` says so again): a withdrawal
 * of the customer's account to the address the chain named as the sender, `prepared` until its funds are held
 * ({@link startReturn}). The sender gets the amount less the network's withdrawal fee, which is kept (`fees`) as
 * for any withdrawal. Refused, changing nothing:
 * - 422 `admin.travel_rule.sender_unknown` when the chain does not name the sender (Bitcoin: inputs have no single
 *   sender), which leaves the funds for the operator to send outside the product;
 * - 422 `admin.travel_rule.return_below_fee` (with `fee`) when the fee would take it all.
 * Returns the withdrawal's id.
 */
export async function recordReturn(tx: pg.PoolClient, d: ReturnedDeposit): Promise<number> {
  if (!d.from_address || !d.blockchain_key)
    throw new AppError(422, [TRAVEL_RULE_INCOMING_ERRORS.senderUnknown]);
  const network = await networkFee(tx, d.currency_id, d.blockchain_key);
  if (!network) throw new AppError(422, [TRAVEL_RULE_INCOMING_ERRORS.networkUnavailable]);
  const fee = toUnits(network.fee, network.precision);
  if (toUnits(d.amount, network.precision) <= fee)
    throw new AppError(422, [TRAVEL_RULE_INCOMING_ERRORS.returnBelowFee], {
      fee: formatUnits(fee, network.precision),
    });
  return insertReturnWithdrawal(tx, {
    userId: d.user_id,
    currency: d.currency_id,
    network: d.blockchain_key,
    address: d.from_address,
    amount: d.amount,
    fee: formatUnits(fee, network.precision),
    note: RETURN_NOTE,
    depositId: d.id,
  });
}

/**
 * Holds a recorded return's funds through the core and hands it to the withdrawal processor, which pays it from
 * the hot wallet and follows it to its confirmations (the signer checks it as any withdrawal). The funds come
 * from `external` straight into the hold (never credited: the customer cannot spend them); settled, the sent part
 * goes back to `external` and the fee to `fees`; failed, it goes back to `external`. Runs once per withdrawal
 * whoever calls it: the hold's command id is `withdraw-hold:<id>`, and only a `prepared` one is accepted.
 */
export async function startReturn(deps: ReturnDeps, withdrawalId: number): Promise<void> {
  const { db, core } = deps;
  const w = await preparedReturn(db, withdrawalId);
  if (!w) return;
  const held = await core.sequencer.submit(
    {
      type: 'HoldWithdrawal',
      user: Number(w.user_id),
      currency: w.currency_id,
      amount: toUnits(w.amount, core.units.precision(w.currency_id)),
      withdrawalId: `w${withdrawalId}`,
      fromExternal: true,
    },
    `withdraw-hold:${withdrawalId}`,
  );
  if (!held.ok) throw new Error(`return ${withdrawalId} could not be held: ${held.code}`);
  await acceptReturn(db, withdrawalId);
  deps.onChange?.(Number(w.user_id), withdrawalId);
}

/** Returns a crash left recorded but not held (older than a minute, so a decision under way is not raced). */
export async function finishReturns(deps: ReturnDeps): Promise<void> {
  for (const id of await staleReturns(deps.db)) await startReturn(deps, id);
}

/** Whether a withdrawal is a travel-rule return (its hold came from `external` and goes back there). */
export async function isReturn(db: pg.Pool, withdrawalId: number): Promise<boolean> {
  return withdrawalIsReturn(db, withdrawalId);
}
