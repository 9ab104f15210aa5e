import {
  CLOSURE_ERRORS,
  type ClosureEntity,
  formatUnits,
  type RequestClosureInput,
  requestClosureSchema,
  toUnits,
  WALLET_ERRORS,
  withdrawMinimum,
} from '@exchange/shared';
import type pg from 'pg';
import { dateOf } from '../../clock.ts';
import type { Core } from '../../core/index.ts';
import { LOCK_FAMILIES, lockForTransaction } from '../../db/locks.ts';
import { withTransaction } from '../../db/pool.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { DEFAULT_TRAVEL_RULE } from '../compliance/travel-rule/config.ts';
import { travelRuleForWithdrawal } from '../compliance/travel-rule/withdrawal-check.ts';
import type { ServerKeys } from '../identity/crypto.ts';
import { verifyPassword } from '../identity/passwords.ts';
import type { RequestOrigin } from '../identity/registration.ts';
import type { SessionStore } from '../identity/sessions.ts';
import { recordActivity, type UserRecord } from '../identity/users-repository.ts';
import { addressOwner } from '../wallet/addresses.ts';
import { checkTotp } from '../wallet/totp-check.ts';
import {
  type CheckedWithdrawal,
  placeWithdrawal,
  type WithdrawDeps,
  withdrawPermission,
} from '../wallet/withdrawals.ts';
import {
  type ClosureRow,
  cancelClosure,
  closureBeneficiary,
  closureWithdrawals,
  completeClosure,
  insertClosure,
  linkWithdrawal,
  networkRules,
  openClosure,
  openClosureUsers,
  precisions,
  WITHDRAWAL_FINAL,
  WITHDRAWAL_RETURNED,
  withdrawalsInFlight,
} from './repository.ts';

/** What closures need: the database, the core (balances, orders), sessions to end, and the withdrawal machinery. */
export interface ClosureDeps {
  db: pg.Pool;
  keys: ServerKeys;
  core: Core;
  sessions: SessionStore;
  withdrawals(): WithdrawDeps;
  log: { warn(obj: unknown, msg?: string): void };
}

const TOPIC = 'account_closure';

/**
 * Account closure (issue 31, part 4; the terms' termination clause). The user asks with the password (and the
 * authenticator code with two-factor on), with no open orders, naming an activated beneficiary of theirs for each
 * remaining balance; each balance leaves as an ordinary withdrawal (the core holds and settles it, its fee as
 * usual, staff review as usual, and the travel rule's IVMS 101 record and holds as for any withdrawal). Once the
 * account holds nothing and no withdrawal is on its way, it is closed: state `deleted`, sessions and API keys
 * ended, the retention dates recorded. Balances without an address wait; after 30 days the operator console lists
 * them for conversion to fiat.
 */
export class AccountClosure {
  constructor(private readonly deps: ClosureDeps) {}

  /** The closure under way (or none) and every currency the account still holds. */
  async status(user: UserRecord): Promise<ClosureEntity> {
    const closure = await openClosure(this.deps.db, user.id);
    const withdrawals = closure ? await closureWithdrawals(this.deps.db, closure.id) : [];
    const scale = await precisions(this.deps.db);
    const state = this.deps.core.sequencer.state;
    const balances = state
      .balances(Number(user.id))
      .filter((b) => b.balance > 0n || b.locked > 0n)
      .map((b) => {
        const p = scale.get(b.currency) ?? 8;
        const w = withdrawals.find((x) => x.currency_id === b.currency) ?? null;
        return {
          currency: b.currency,
          balance: formatUnits(b.balance, p),
          locked: formatUnits(b.locked, p),
          withdrawal: w && {
            id: w.id,
            state: w.state,
            amount: w.amount,
            fee: w.fee,
            rid: w.rid,
            blockchain_key: w.blockchain_key,
          },
        };
      });
    // Withdrawals of currencies already gone in full are shown too: the user follows them to the end.
    for (const w of withdrawals) {
      if (balances.some((b) => b.currency === w.currency_id)) continue;
      const { id, state: s, amount, fee, rid, blockchain_key } = w;
      balances.push({
        currency: w.currency_id,
        balance: '0',
        locked: '0',
        withdrawal: { id, state: s, amount, fee, rid, blockchain_key },
      });
    }
    return {
      state: closure ? 'open' : 'none',
      requested_at: closure ? closure.requested_at.toISOString() : null,
      conversion_due_at: closure ? closure.conversion_due_at.toISOString() : null,
      cancelable: closure !== null && withdrawals.every((w) => isReturned(w.state)),
      open_orders: state.openOrders(Number(user.id)).length,
      balances,
    };
  }

  /**
   * Asks to close the account, or names addresses for what a closure under way has left. Checks, in this order:
   * password, authenticator code, open orders, then every named address (all before any withdrawal is placed).
   * One request at a time per user (a lock), so a balance is never withdrawn twice. Closes at once when nothing
   * is left (an account with no balance, or internal transfers that settled at once).
   */
  async request(user: UserRecord, raw: RequestClosureInput, origin: RequestOrigin): Promise<ClosureEntity> {
    const input = requestClosureSchema.parse(raw);
    const { db, core } = this.deps;
    if (!(await verifyPassword(user.password_digest, input.password)))
      throw invalid(CLOSURE_ERRORS.invalidPassword);
    if (user.otp) {
      if (!input.otp_code) throw invalid(CLOSURE_ERRORS.missingOtp);
      await checkTotp(this.deps.withdrawals(), user, input.otp_code, CLOSURE_ERRORS.invalidOtp);
    }
    if (core.sequencer.state.openOrders(Number(user.id)).length > 0) throw invalid(CLOSURE_ERRORS.openOrders);

    // Every address is checked before anything is recorded: a refused request leaves no closure behind.
    await this.plan(user, input.addresses);
    const closure = await withTransaction(db, async (tx) => {
      await lockForTransaction(tx, [LOCK_FAMILIES.accountClosure, Number(user.id)]);
      const open = await openClosure(tx, user.id);
      if (open) return open;
      const created = await insertClosure(tx, user.id, dateOf(this.deps.withdrawals().clock));
      await recordActivity(tx, {
        userId: user.id,
        action: 'closure.request',
        result: 'succeed',
        topic: TOPIC,
        ip: origin.ip,
        userAgent: origin.userAgent,
        data: { closure_id: created.id },
      });
      return created;
    });
    // The withdrawals are placed on the pool (the core holds each); this transaction's lock keeps a second request
    // of the user waiting meanwhile, and the plan is made again under it, so a balance is sent once. Each is linked
    // as soon as it is placed: a failure on the second leaves the first recorded.
    await withTransaction(db, async (tx) => {
      await lockForTransaction(tx, [LOCK_FAMILIES.accountClosure, Number(user.id)]);
      for (const w of await this.plan(user, input.addresses)) {
        const id = await placeWithdrawal(this.deps.withdrawals(), user, w, origin);
        await linkWithdrawal(db, closure.id, id);
      }
    });
    if (await this.settle(user.id)) return { ...(await this.status(user)), state: 'closed' };
    return this.status(user);
  }

  /**
   * The withdrawals the named addresses make, each checked: the user's own activated beneficiary for the currency
   * (else `invalid_beneficiary`, whoever's it is), an enabled network, a balance to send above the minimum. The
   * whole available balance goes; the network's fee is taken from it as for any withdrawal.
   */
  private async plan(
    user: UserRecord,
    addresses: readonly { currency: string; beneficiary_id: number }[],
  ): Promise<CheckedWithdrawal[]> {
    if (addresses.length === 0) return [];
    const { db } = this.deps;
    const permission = await withdrawPermission(this.deps.withdrawals(), user);
    if (user.level < 3 || permission.hold_until !== null)
      throw new AppError(403, [CLOSURE_ERRORS.withdrawNotPermitted], { hold_until: permission.hold_until });
    const seen = new Set<string>();
    const planned: CheckedWithdrawal[] = [];
    for (const { currency, beneficiary_id } of addresses) {
      if (seen.has(currency)) throw invalid(CLOSURE_ERRORS.nothingToWithdraw);
      seen.add(currency);
      const beneficiary = await closureBeneficiary(db, beneficiary_id, user.id);
      if (beneficiary?.state !== 'active' || beneficiary.currency_id !== currency)
        throw invalid(CLOSURE_ERRORS.invalidBeneficiary);
      const network = await networkRules(db, currency, beneficiary.blockchain_key);
      const chain = this.deps.withdrawals().chains.get(beneficiary.blockchain_key)?.chain;
      if (!network || !chain) throw invalid(WALLET_ERRORS.networkNotFound);
      if (!network.withdraw_enabled) throw invalid(WALLET_ERRORS.withdrawDisabled);
      if (chain.normalizeAddress(beneficiary.address) !== beneficiary.address)
        throw invalid(WALLET_ERRORS.beneficiaryAddressInvalid);
      const recipient = await addressOwner(db, beneficiary.blockchain_key, beneficiary.address);
      // One's own deposit address would send the balance back to the account being closed.
      if (recipient === Number(user.id)) throw invalid(CLOSURE_ERRORS.invalidBeneficiary);
      const amount = this.deps.core.sequencer.state.balance(Number(user.id), currency).balance;
      if (amount <= 0n) throw invalid(CLOSURE_ERRORS.nothingToWithdraw);
      const internal = recipient !== null;
      const info = { ...network, blockchain_key: beneficiary.blockchain_key };
      if (amount < withdrawMinimum(info, network.precision, internal)) {
        throw new AppError(422, [CLOSURE_ERRORS.belowMinimum], {
          details: {
            currency,
            min: formatUnits(withdrawMinimum(info, network.precision, internal), network.precision),
          },
        });
      }
      // The travel rule as for any withdrawal: the originator from the verified profile, the beneficiary as the
      // saved address declares it; a self-hosted address above the threshold must have been proved first.
      const withdrawDeps = this.deps.withdrawals();
      const travelRule = await travelRuleForWithdrawal(
        { db, core: this.deps.core, config: withdrawDeps.travelRule ?? DEFAULT_TRAVEL_RULE },
        user,
        { currency, amount, recipient, beneficiary },
      );
      planned.push({
        travelRule,
        currency,
        blockchainKey: beneficiary.blockchain_key,
        beneficiaryId: beneficiary.id,
        rid: beneficiary.address,
        memo: beneficiary.memo,
        amount,
        fee: internal ? 0n : toUnits(network.withdraw_fee, network.precision),
        precision: network.precision,
        recipient,
      });
    }
    return planned;
  }

  /** Cancels the closure under way, while nothing has left the account for it. */
  async cancel(user: UserRecord, origin: RequestOrigin): Promise<ClosureEntity> {
    await withTransaction(this.deps.db, async (tx) => {
      await lockForTransaction(tx, [LOCK_FAMILIES.accountClosure, Number(user.id)]);
      const closure = await openClosure(tx, user.id);
      if (!closure) throw new AppError(404, [CLOSURE_ERRORS.notFound]);
      const withdrawals = await closureWithdrawals(tx, closure.id);
      if (!withdrawals.every((w) => isReturned(w.state))) throw invalid(CLOSURE_ERRORS.notCancelable);
      await cancelClosure(tx, closure.id, dateOf(this.deps.withdrawals().clock));
      await recordActivity(tx, {
        userId: user.id,
        action: 'closure.cancel',
        result: 'succeed',
        topic: TOPIC,
        ip: origin.ip,
        userAgent: origin.userAgent,
        data: { closure_id: closure.id },
      });
    });
    return this.status(user);
  }

  /**
   * Closes the user's account if its closure is under way and nothing is left: no balance, nothing held, no open
   * order, no withdrawal on its way. True when it closed now.
   */
  async settle(userId: string): Promise<boolean> {
    const { db, core } = this.deps;
    // Every command answered so far is applied: the balances below are the committed ones.
    await core.sequencer.settled();
    const state = core.sequencer.state;
    const held = state.balances(Number(userId)).some((b) => b.balance > 0n || b.locked > 0n);
    if (held || state.openOrders(Number(userId)).length > 0) return false;
    const closed = await withTransaction(db, async (tx) => {
      await lockForTransaction(tx, [LOCK_FAMILIES.accountClosure, Number(userId)]);
      const closure: ClosureRow | null = await openClosure(tx, userId);
      if (!closure || (await withdrawalsInFlight(tx, userId)) > 0) return false;
      if (!(await completeClosure(tx, closure, dateOf(this.deps.withdrawals().clock)))) return false;
      await recordActivity(tx, {
        userId,
        action: 'closure.complete',
        result: 'succeed',
        topic: TOPIC,
        ip: null,
        userAgent: null,
        data: { closure_id: closure.id },
      });
      return true;
    });
    if (closed) await this.deps.sessions.revokeAllForUser(userId, undefined, 'closure');
    return closed;
  }

  /** One pass of the background job: every closure under way that has nothing left is closed. */
  async sweep(): Promise<number> {
    let closed = 0;
    for (const userId of await openClosureUsers(this.deps.db)) {
      try {
        if (await this.settle(userId)) closed += 1;
      } catch (err) {
        this.deps.log.warn({ err: String(err), userId }, 'account closure could not settle');
      }
    }
    return closed;
  }
}

/** Whether a withdrawal's funds came back (or never left): it does not count as withdrawn. */
function isReturned(state: string): boolean {
  return (WITHDRAWAL_RETURNED as readonly string[]).includes(state);
}

/** Whether a withdrawal reached its end. */
export function isFinal(state: string): boolean {
  return (WITHDRAWAL_FINAL as readonly string[]).includes(state);
}
