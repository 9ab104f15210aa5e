import {
  ADMIN_TRAVEL_RULE_FILTERS,
  type AdminTravelRuleDeposit,
  type DecideTravelRuleDepositInput,
  TRAVEL_RULE_INCOMING_ERRORS,
  toUnits,
} from '@exchange/shared';
import type pg from 'pg';
import type { Core } from '../../../core/index.ts';
import { withTransaction } from '../../../db/pool.ts';
import { AppError } from '../../../http/errors.ts';
import { refuseOwnAccount, type Staff } from '../../admin/access.ts';
import { recordStaffAction } from '../../admin/trail.ts';
import { isoSql } from '../../identity/users-repository.ts';
import { creditDeposit } from '../../wallet/deposit-credit.ts';
import { recordReturn, startReturn } from './incoming-return.ts';

/** A filter of the console's list. */
export type AdminTravelRuleFilter = (typeof ADMIN_TRAVEL_RULE_FILTERS)[number];

/** What a decision needs: the database, the core, and the customer's deposit and withdrawal streams. */
export interface IncomingReviewDeps {
  db: pg.Pool;
  core: Core;
  onDeposit?: (userId: number, depositId: number) => void;
  onChange?: (userId: number, withdrawalId: number) => void;
}

const SELECT = `select d.id::int, u.uid, u.email, d.currency_id as currency, d.blockchain_key,
    trim_scale(d.amount)::text as amount, d.txid, d.address, d.from_address, d.state,
    d.travel_rule_status as status, d.travel_rule->>'provider_id' as provider_id,
    d.travel_rule->>'provider_name' as provider_name, d.travel_rule->'payload' as record,
    case when r.id is null then null else json_build_object('withdrawal_id', r.id::int, 'state', r.state,
      'amount', trim_scale(r.amount)::text, 'fee', trim_scale(r.fee)::text, 'to_address', r.rid, 'txid', r.txid,
      'error', r.error) end as return,
    s.email as decided_by, ${isoSql('d.travel_rule_decided_at')} as decided_at, d.travel_rule_note as reason,
    ${isoSql('d.created_at')} as created_at
  from deposits d join users u on u.id = d.user_id left join users s on s.id = d.travel_rule_decided_by
    left join withdrawals r on r.travel_rule_return_of = d.id`;

/**
 * The deposits under the travel rule in one status, newest first: `held` (waiting for a decision: not credited,
 * still on the chain), `awaiting` (the window for the originator's information still runs), `unchecked`
 * (credited while the travel-rule service could not be asked: compliance follows each up, art. 16(1)),
 * `released`, `returned`, or all of these.
 */
export async function listTravelRuleDeposits(
  db: pg.Pool,
  state: AdminTravelRuleFilter,
): Promise<AdminTravelRuleDeposit[]> {
  const statuses = state === 'all' ? ADMIN_TRAVEL_RULE_FILTERS.filter((f) => f !== 'all') : [state];
  return (
    await db.query(
      `${SELECT} where d.travel_rule_status = any($1)
         and (d.travel_rule_status not in ('held', 'awaiting') or d.state = 'submitted')
       order by d.id desc limit 500`,
      [statuses],
    )
  ).rows.map((r) => ({ ...r, record: r.record ?? null }));
}

/**
 * Decides a held deposit: `release` credits it (through the core's `deposit:<id>`, which runs once whoever asks:
 * a second release, or the watcher, credits nothing more), `return` rejects it and sends its funds back to the
 * sender from the hot wallet, as a withdrawal the processor pays ({@link recordReturn}, {@link startReturn}: once,
 * the network fee kept; refused where the chain does not name the sender). The decision, its reason and who took
 * it stay on the deposit and in the staff trail (target: the customer's uid). Never on the staff member's own
 * account (403 `admin.user.own_account`, refused by the database too); 404 for an unknown deposit, 422 for one
 * that is not held.
 */
export async function decideTravelRuleDeposit(
  deps: IncomingReviewDeps,
  staff: Staff,
  id: number,
  decision: 'release' | 'return',
  input: DecideTravelRuleDepositInput,
): Promise<AdminTravelRuleDeposit> {
  const { db } = deps;
  const decided = await withTransaction(db, async (tx) => {
    const d = (
      await tx.query(
        `select d.id::int, d.user_id, d.currency_id, d.blockchain_key, d.amount::text, d.from_address, d.state,
           d.travel_rule_status, u.uid
           from deposits d join users u on u.id = d.user_id where d.id = $1 for update of d`,
        [id],
      )
    ).rows[0];
    if (!d) throw new AppError(404, [TRAVEL_RULE_INCOMING_ERRORS.depositNotFound]);
    refuseOwnAccount(staff, String(d.user_id));
    if (d.travel_rule_status !== 'held' || d.state !== 'submitted')
      throw new AppError(422, [TRAVEL_RULE_INCOMING_ERRORS.notHeld]);
    const status = decision === 'release' ? 'released' : 'returned';
    // Refused before anything changes when the chain names no sender, or the fee would take it all.
    const returnId = decision === 'return' ? await recordReturn(tx, d) : null;
    // A returned deposit is rejected here, in the same statement: the watcher never credits it.
    await tx.query(
      `update deposits set travel_rule_status = $2, travel_rule_decided_by = $3, travel_rule_decided_at = now(),
         travel_rule_note = $4,
         state = case when $2 = 'returned' then 'rejected' else state end,
         note = case when $2 = 'returned' then 'travel rule: returned to the sender' else note end,
         updated_at = now()
       where id = $1`,
      [id, status, staff.user.id, input.reason],
    );
    await recordStaffAction(tx, staff, `deposit.travel_rule.${decision}`, d.uid, {
      before: { deposit: id, status: 'held' },
      after: { deposit: id, status, reason: input.reason, ...(returnId ? { withdrawal: returnId } : {}) },
    });
    return { ...d, returnId };
  });
  // Returned: its funds are held (from `external`) and the processor pays it, after the decision is committed; a
  // crash in between leaves it `prepared`, which the processor's next pass holds with the same command id.
  if (decided.returnId !== null) await startReturn(deps, decided.returnId);
  // Released: credited after the decision is committed; a crash in between leaves it `released` and
  // `submitted`, which the watcher credits at its next pass with the same command id.
  if (decision === 'release')
    await creditDeposit(deps, {
      id,
      user_id: decided.user_id,
      currency_id: decided.currency_id,
      amount: toUnits(decided.amount, deps.core.units.precision(decided.currency_id)),
    });
  deps.onDeposit?.(Number(decided.user_id), id);
  return (await db.query(`${SELECT} where d.id = $1`, [id])).rows.map((r) => ({
    ...r,
    record: r.record ?? null,
  }))[0];
}
