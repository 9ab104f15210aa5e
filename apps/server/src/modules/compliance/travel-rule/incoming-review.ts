import {
  ADMIN_TRAVEL_RULE_FILTERS,
  type AdminTravelRuleDeposit,
  type DecideTravelRuleDepositInput,
  TRAVEL_RULE_INCOMING_ERRORS,
  toUnits,
} from '@exchange/shared';
import type pg from 'pg';
import { type Clock, dateOf } from '../../../clock.ts';
import type { Core } from '../../../core/index.ts';
import { withTransaction } from '../../../db/pool.ts';
import { AppError } from '../../../http/errors.ts';
import { refuseOwnAccount, type Staff } from '../../admin/access.ts';
import { recordStaffAction } from '../../admin/trail.ts';
import { creditDeposit } from '../../wallet/deposit-credit.ts';
import {
  depositById,
  depositsInStatuses,
  lockDeposit,
  recordDepositDecision,
} from './incoming-repository.ts';
import { recordReturn, startReturn } from './incoming-return.ts';

/** A filter of the console's list. */
export type AdminTravelRuleFilter = (typeof ADMIN_TRAVEL_RULE_FILTERS)[number];

/** What a decision needs: the database, the core, and the customer's deposit and withdrawal streams. */
export interface IncomingReviewDeps {
  db: pg.Pool;
  core: Core;
  /** The app's clock (clock.ts): a released deposit's credit and the decision are stamped on it. */
  clock: Clock;
  onDeposit?: (userId: number, depositId: number) => void;
  onChange?: (userId: number, withdrawalId: number) => void;
}

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
  return depositsInStatuses(db, statuses);
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
    const d = await lockDeposit(tx, id);
    if (!d) throw new AppError(404, [TRAVEL_RULE_INCOMING_ERRORS.depositNotFound]);
    refuseOwnAccount(staff, String(d.user_id));
    if (d.travel_rule_status !== 'held' || d.state !== 'submitted')
      throw new AppError(422, [TRAVEL_RULE_INCOMING_ERRORS.notHeld]);
    const status = decision === 'release' ? 'released' : 'returned';
    // Refused before anything changes when the chain names no sender, or the fee would take it all.
    const returnId = decision === 'return' ? await recordReturn(tx, d) : null;
    // A returned deposit is rejected here, in the same statement: the watcher never credits it.
    await recordDepositDecision(tx, id, status, staff.user.id, input.reason, dateOf(deps.clock));
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
  const deposit = await depositById(db, id);
  // Locked and decided above, so it exists.
  if (!deposit) throw new AppError(404, [TRAVEL_RULE_INCOMING_ERRORS.depositNotFound]);
  return deposit;
}
