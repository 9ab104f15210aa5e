/** Wallet, card, liquidity and trading-level commands (market and fee commands are in markets.ts). */
import { Rejection, type RejectionCode } from './codes.ts';
import {
  available,
  cause,
  hold,
  lockedToSys,
  lockedToUser,
  release,
  type SystemAccount,
  sysToLocked,
  sysToSys,
  sysToUser,
  userToSys,
  userToUser,
} from './ledger.ts';
import { validUser } from './orders.ts';
import type { CoreState, Tx } from './state.ts';
import type {
  CardFee,
  CardRefund,
  CardTopUp,
  Credit,
  Debit,
  DrainLiquidity,
  FundLiquidity,
  HoldWithdrawal,
  InternalTransfer,
  ReleaseWithdrawal,
  SetTradingLevel,
  SettleWithdrawal,
} from './types.ts';

function cur(st: CoreState, id: string): number | RejectionCode {
  const i = st.curIdx.get(id);
  return i === undefined ? Rejection.CurrencyNotFound : i;
}

function isAmount(x: unknown): x is bigint {
  return typeof x === 'bigint';
}

/** Credit: `external` → user balance. */
export function credit(st: CoreState, tx: Tx, c: Credit): RejectionCode | null {
  if (!validUser(c.user)) return Rejection.InvalidUser;
  const ci = cur(st, c.currency);
  if (typeof ci === 'string') return ci;
  if (!isAmount(c.amount)) return Rejection.InvalidCommand;
  if (c.amount <= 0n) return Rejection.NonPositiveAmount;
  if (c.kind !== 'deposit' && c.kind !== 'adjustment') return Rejection.InvalidKind;
  sysToUser(st, tx, 'external', st.account(c.user), ci, c.amount);
  return null;
}

/** Debit: user balance → `external`. */
export function debit(st: CoreState, tx: Tx, c: Debit): RejectionCode | null {
  if (!validUser(c.user)) return Rejection.InvalidUser;
  const ci = cur(st, c.currency);
  if (typeof ci === 'string') return ci;
  if (!isAmount(c.amount)) return Rejection.InvalidCommand;
  if (c.amount <= 0n) return Rejection.NonPositiveAmount;
  if (c.kind !== 'withdrawal' && c.kind !== 'adjustment') return Rejection.InvalidKind;
  if (available(st, c.user, ci) < c.amount) return Rejection.InsufficientFunds;
  userToSys(st, tx, st.account(c.user), 'external', ci, c.amount);
  return null;
}

/** HoldWithdrawal: balance (or `external`, for funds never credited) → locked, remembered under `withdrawalId`. */
export function holdWithdrawal(st: CoreState, tx: Tx, c: HoldWithdrawal): RejectionCode | null {
  if (!validUser(c.user)) return Rejection.InvalidUser;
  const ci = cur(st, c.currency);
  if (typeof ci === 'string') return ci;
  if (typeof c.withdrawalId !== 'string' || !isAmount(c.amount)) return Rejection.InvalidCommand;
  if (c.amount <= 0n) return Rejection.WithdrawNonPositiveAmount;
  if (st.withdrawals.has(c.withdrawalId)) return Rejection.WithdrawDuplicate;
  if (c.fromExternal !== undefined && typeof c.fromExternal !== 'boolean') return Rejection.InvalidCommand;
  if (c.fromExternal) {
    // Never credited: `external` → locked, the user's available balance untouched.
    const acct = st.account(c.user);
    sysToLocked(st, tx, 'external', acct, ci, c.amount);
    st.withdrawals.set(c.withdrawalId, { acct, cur: ci, amount: c.amount });
    return null;
  }
  if (available(st, c.user, ci) < c.amount) return Rejection.WithdrawInsufficientBalance;
  const acct = st.account(c.user);
  hold(st, tx, acct, ci, c.amount);
  st.withdrawals.set(c.withdrawalId, { acct, cur: ci, amount: c.amount });
  return null;
}

/** SettleWithdrawal: locked → `external` or another user (amount − fee) and `fees` (fee). */
export function settleWithdrawal(st: CoreState, tx: Tx, c: SettleWithdrawal): RejectionCode | null {
  const w = st.withdrawals.get(c.withdrawalId);
  if (w === undefined) return Rejection.WithdrawNotFound;
  if (!isAmount(c.fee)) return Rejection.InvalidCommand;
  if (c.fee < 0n || c.fee > w.amount) return Rejection.WithdrawInvalidFee;
  if (c.toUser !== undefined && (!validUser(c.toUser) || c.toUser === w.acct.id))
    return Rejection.InvalidUser;
  st.withdrawals.delete(c.withdrawalId);
  if (c.toUser !== undefined) lockedToUser(st, tx, w.acct, st.account(c.toUser), w.cur, w.amount - c.fee);
  else lockedToSys(st, tx, w.acct, 'external', w.cur, w.amount - c.fee);
  cause(tx, 'fee', 0);
  lockedToSys(st, tx, w.acct, 'fees', w.cur, c.fee);
  return null;
}

/** ReleaseWithdrawal: locked → balance (or → `external` for a hold taken from it). */
export function releaseWithdrawal(st: CoreState, tx: Tx, c: ReleaseWithdrawal): RejectionCode | null {
  const w = st.withdrawals.get(c.withdrawalId);
  if (w === undefined) return Rejection.WithdrawNotFound;
  if (c.toExternal !== undefined && typeof c.toExternal !== 'boolean') return Rejection.InvalidCommand;
  st.withdrawals.delete(c.withdrawalId);
  if (c.toExternal) lockedToSys(st, tx, w.acct, 'external', w.cur, w.amount);
  else release(st, tx, w.acct, w.cur, w.amount);
  return null;
}

/** InternalTransfer: sender balance → receiver balance, no fee. */
export function internalTransfer(st: CoreState, tx: Tx, c: InternalTransfer): RejectionCode | null {
  if (!validUser(c.from) || !validUser(c.to)) return Rejection.InvalidUser;
  const ci = cur(st, c.currency);
  if (typeof ci === 'string') return ci;
  if (!isAmount(c.amount)) return Rejection.InvalidCommand;
  if (c.amount <= 0n) return Rejection.TransferNonPositiveAmount;
  if (c.from === c.to) return Rejection.TransferToSelf;
  if (available(st, c.from, ci) < c.amount) return Rejection.TransferInsufficientBalance;
  userToUser(st, tx, st.account(c.from), st.account(c.to), ci, c.amount);
  return null;
}

function cardCur(st: CoreState): number | RejectionCode {
  return st.cardCur < 0 ? Rejection.CurrencyNotFound : st.cardCur;
}

/** CardTopUp: balance → `card` (amount) and `fees` (fee). */
export function cardTopUp(st: CoreState, tx: Tx, c: CardTopUp): RejectionCode | null {
  if (!validUser(c.user)) return Rejection.InvalidUser;
  const ci = cardCur(st);
  if (typeof ci === 'string') return ci;
  if (!isAmount(c.amount) || !isAmount(c.fee)) return Rejection.InvalidCommand;
  if (c.amount <= 0n) return Rejection.CardNonPositiveAmount;
  if (c.fee < 0n) return Rejection.CardInvalidFee;
  if (available(st, c.user, ci) < c.amount + c.fee) return Rejection.CardInsufficientBalance;
  const acct = st.account(c.user);
  userToSys(st, tx, acct, 'card', ci, c.amount);
  cause(tx, 'fee', 0);
  userToSys(st, tx, acct, 'fees', ci, c.fee);
  return null;
}

/** CardFee: balance → `fees`. */
export function cardFee(st: CoreState, tx: Tx, c: CardFee): RejectionCode | null {
  if (!validUser(c.user)) return Rejection.InvalidUser;
  const ci = cardCur(st);
  if (typeof ci === 'string') return ci;
  if (!isAmount(c.amount)) return Rejection.InvalidCommand;
  if (c.amount <= 0n) return Rejection.CardNonPositiveAmount;
  if (available(st, c.user, ci) < c.amount) return Rejection.CardInsufficientBalance;
  userToSys(st, tx, st.account(c.user), 'fees', ci, c.amount);
  return null;
}

/** CardRefund: `card` → balance. */
export function cardRefund(st: CoreState, tx: Tx, c: CardRefund): RejectionCode | null {
  if (!validUser(c.user)) return Rejection.InvalidUser;
  const ci = cardCur(st);
  if (typeof ci === 'string') return ci;
  if (!isAmount(c.amount)) return Rejection.InvalidCommand;
  if (c.amount <= 0n) return Rejection.CardNonPositiveAmount;
  if ((st.sys.card[ci] as bigint) < c.amount) return Rejection.CardInsufficientFloat;
  sysToUser(st, tx, 'card', st.account(c.user), ci, c.amount);
  return null;
}

/** FundLiquidity / DrainLiquidity: `external` ↔ `swap`. */
export function liquidity(st: CoreState, tx: Tx, c: FundLiquidity | DrainLiquidity): RejectionCode | null {
  const ci = cur(st, c.currency);
  if (typeof ci === 'string') return ci;
  if (!isAmount(c.amount)) return Rejection.InvalidCommand;
  if (c.amount <= 0n) return Rejection.NonPositiveAmount;
  const [from, to]: [SystemAccount, SystemAccount] =
    c.type === 'FundLiquidity' ? ['external', 'swap'] : ['swap', 'external'];
  if (c.type === 'DrainLiquidity' && (st.sys.swap[ci] as bigint) < c.amount)
    return Rejection.LiquidityInsufficient;
  sysToSys(st, tx, from, to, ci, c.amount);
  return null;
}

/** A trading level: a safe non-negative integer. */
export function validLevel(l: unknown): l is number {
  return typeof l === 'number' && Number.isSafeInteger(l) && l >= 0;
}

/** SetTradingLevel. */
export function setTradingLevel(st: CoreState, c: SetTradingLevel): RejectionCode | null {
  if (!validUser(c.user)) return Rejection.InvalidUser;
  if (!validLevel(c.level)) return Rejection.InvalidTradingLevel;
  st.account(c.user).level = c.level;
  return null;
}
