import { formatUnits, TRAVEL_RULE_INCOMING_ERRORS, toUnits } from '@exchange/shared';
import type pg from 'pg';
import type { Core } from '../../../core/index.ts';
import { AppError } from '../../../http/errors.ts';

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
  const network = (
    await tx.query(
      `select n.withdraw_fee::text as fee, c.precision from currency_networks n
         join currencies c on c.id = n.currency_id where n.currency_id = $1 and n.blockchain_key = $2`,
      [d.currency_id, d.blockchain_key],
    )
  ).rows[0] as { fee: string; precision: number } | undefined;
  if (!network) throw new AppError(422, [TRAVEL_RULE_INCOMING_ERRORS.networkUnavailable]);
  const fee = toUnits(network.fee, network.precision);
  if (toUnits(d.amount, network.precision) <= fee)
    throw new AppError(422, [TRAVEL_RULE_INCOMING_ERRORS.returnBelowFee], {
      fee: formatUnits(fee, network.precision),
    });
  const row = (
    await tx.query(
      `insert into withdrawals (user_id, currency_id, blockchain_key, rid, amount, fee, note, travel_rule_return_of)
       values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
      [
        d.user_id,
        d.currency_id,
        d.blockchain_key,
        d.from_address,
        d.amount,
        formatUnits(fee, network.precision),
        RETURN_NOTE,
        d.id,
      ],
    )
  ).rows[0];
  return Number(row.id);
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
  const w = (
    await db.query(
      `select user_id, currency_id, amount::text from withdrawals
        where id = $1 and state = 'prepared' and travel_rule_return_of is not null`,
      [withdrawalId],
    )
  ).rows[0];
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
  await db.query(
    `update withdrawals set state = 'accepted', updated_at = now() where id = $1 and state = 'prepared'`,
    [withdrawalId],
  );
  deps.onChange?.(Number(w.user_id), withdrawalId);
}

/** Returns a crash left recorded but not held (older than a minute, so a decision under way is not raced). */
export async function finishReturns(deps: ReturnDeps): Promise<void> {
  const rows = await deps.db.query(
    `select id from withdrawals where state = 'prepared' and travel_rule_return_of is not null
       and updated_at < now() - interval '1 minute' order by id limit 50`,
  );
  for (const r of rows.rows) await startReturn(deps, Number(r.id));
}

/** Whether a withdrawal is a travel-rule return (its hold came from `external` and goes back there). */
export async function isReturn(db: pg.Pool, withdrawalId: number): Promise<boolean> {
  return (
    (
      await db.query('select travel_rule_return_of is not null as is_return from withdrawals where id = $1', [
        withdrawalId,
      ])
    ).rows[0]?.is_return === true
  );
}
