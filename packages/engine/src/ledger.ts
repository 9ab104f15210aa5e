/**
 * Balance primitives. Every function moves money between two (or three) accounts, writes the matching
 * postings (which sum to zero per currency) and marks the user balances it touched.
 */

import type { PostingCause } from './events.ts';
import type { UserAccount } from './order.ts';
import type { CoreState, SystemAccounts, Tx } from './state.ts';

/** Names of the system accounts. */
export type SystemAccount = keyof SystemAccounts;

/** Mark a user balance as touched by this command (one BalanceChanged at command end). */
export function touch(tx: Tx, a: UserAccount, ci: number): void {
  if (a.stamp[ci] !== tx.stamp) {
    a.stamp[ci] = tx.stamp;
    const n = tx.nTouched++;
    tx.touchedAcct[n] = a;
    tx.touchedCur[n] = ci;
  }
}

/** Sets the cause of the postings that follow (see {@link PostingCause}). */
export function cause(tx: Tx, why: PostingCause, id: number): void {
  tx.cause = why;
  tx.causeId = id;
}

/** Append a posting of the current cause (skips zero amounts). */
export function post(st: CoreState, tx: Tx, account: string, ci: number, amount: bigint): void {
  if (amount !== 0n) posting(tx, account, st.curIds[ci] as string, amount);
}

/** Append a posting of the current cause. */
export function posting(tx: Tx, account: string, currency: string, amount: bigint): void {
  tx.postings[tx.nPostings++] = { account, currency, amount, cause: tx.cause, causeId: tx.causeId };
}

/** Available (main) balance of a user without creating the account. */
export function available(st: CoreState, user: number, ci: number): bigint {
  const a = st.users.get(user);
  return a === undefined ? 0n : (a.main[ci] as bigint);
}

/** main → locked. Caller has checked availability. */
export function hold(st: CoreState, tx: Tx, a: UserAccount, ci: number, amt: bigint): void {
  if (amt === 0n) return;
  a.main[ci] = (a.main[ci] as bigint) - amt;
  a.locked[ci] = (a.locked[ci] as bigint) + amt;
  const currency = st.curIds[ci] as string;
  posting(tx, a.mainKey, currency, -amt);
  posting(tx, a.lockedKey, currency, amt);
  touch(tx, a, ci);
}

/** locked → main. */
export function release(st: CoreState, tx: Tx, a: UserAccount, ci: number, amt: bigint): void {
  if (amt === 0n) return;
  a.locked[ci] = (a.locked[ci] as bigint) - amt;
  a.main[ci] = (a.main[ci] as bigint) + amt;
  const currency = st.curIds[ci] as string;
  posting(tx, a.lockedKey, currency, -amt);
  posting(tx, a.mainKey, currency, amt);
  touch(tx, a, ci);
}

/** system account → user main. */
export function sysToUser(
  st: CoreState,
  tx: Tx,
  sys: SystemAccount,
  a: UserAccount,
  ci: number,
  amt: bigint,
): void {
  const s = st.sys[sys];
  s[ci] = (s[ci] as bigint) - amt;
  a.main[ci] = (a.main[ci] as bigint) + amt;
  post(st, tx, sys, ci, -amt);
  post(st, tx, a.mainKey, ci, amt);
  touch(tx, a, ci);
}

/** system account → user locked (funds held for the user that never reached the balance). */
export function sysToLocked(
  st: CoreState,
  tx: Tx,
  sys: SystemAccount,
  a: UserAccount,
  ci: number,
  amt: bigint,
): void {
  if (amt === 0n) return;
  const s = st.sys[sys];
  s[ci] = (s[ci] as bigint) - amt;
  a.locked[ci] = (a.locked[ci] as bigint) + amt;
  post(st, tx, sys, ci, -amt);
  post(st, tx, a.lockedKey, ci, amt);
  touch(tx, a, ci);
}

/** user main → system account. */
export function userToSys(
  st: CoreState,
  tx: Tx,
  a: UserAccount,
  sys: SystemAccount,
  ci: number,
  amt: bigint,
): void {
  if (amt === 0n) return;
  const s = st.sys[sys];
  a.main[ci] = (a.main[ci] as bigint) - amt;
  s[ci] = (s[ci] as bigint) + amt;
  post(st, tx, a.mainKey, ci, -amt);
  post(st, tx, sys, ci, amt);
  touch(tx, a, ci);
}

/** user locked → system account. */
export function lockedToSys(
  st: CoreState,
  tx: Tx,
  a: UserAccount,
  sys: SystemAccount,
  ci: number,
  amt: bigint,
): void {
  if (amt === 0n) return;
  const s = st.sys[sys];
  a.locked[ci] = (a.locked[ci] as bigint) - amt;
  s[ci] = (s[ci] as bigint) + amt;
  post(st, tx, a.lockedKey, ci, -amt);
  post(st, tx, sys, ci, amt);
  touch(tx, a, ci);
}

/** user locked → another user's main. */
export function lockedToUser(
  st: CoreState,
  tx: Tx,
  from: UserAccount,
  to: UserAccount,
  ci: number,
  amt: bigint,
): void {
  if (amt === 0n) return;
  from.locked[ci] = (from.locked[ci] as bigint) - amt;
  to.main[ci] = (to.main[ci] as bigint) + amt;
  post(st, tx, from.lockedKey, ci, -amt);
  post(st, tx, to.mainKey, ci, amt);
  touch(tx, from, ci);
  touch(tx, to, ci);
}

/** system → system. */
export function sysToSys(
  st: CoreState,
  tx: Tx,
  from: SystemAccount,
  to: SystemAccount,
  ci: number,
  amt: bigint,
): void {
  if (amt === 0n) return;
  const f = st.sys[from];
  const t = st.sys[to];
  f[ci] = (f[ci] as bigint) - amt;
  t[ci] = (t[ci] as bigint) + amt;
  post(st, tx, from, ci, -amt);
  post(st, tx, to, ci, amt);
}

/** user main → user main. */
export function userToUser(
  st: CoreState,
  tx: Tx,
  from: UserAccount,
  to: UserAccount,
  ci: number,
  amt: bigint,
): void {
  from.main[ci] = (from.main[ci] as bigint) - amt;
  to.main[ci] = (to.main[ci] as bigint) + amt;
  post(st, tx, from.mainKey, ci, -amt);
  post(st, tx, to.mainKey, ci, amt);
  touch(tx, from, ci);
  touch(tx, to, ci);
}

/** Emit BalanceChanged for every touched user balance (final values). */
export function flushBalances(st: CoreState, tx: Tx): void {
  const accts = tx.touchedAcct;
  const curs = tx.touchedCur;
  for (let i = 0; i < tx.nTouched; i++) {
    const a = accts[i] as UserAccount;
    const ci = curs[i] as number;
    tx.events[tx.nEvents++] = {
      type: 'BalanceChanged',
      user: a.id,
      currency: st.curIds[ci] as string,
      balance: a.main[ci] as bigint,
      locked: a.locked[ci] as bigint,
    };
  }
}
