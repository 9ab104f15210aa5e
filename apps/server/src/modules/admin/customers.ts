import { ADMIN_ERRORS } from '@exchange/shared';
import type pg from 'pg';
import { containsPattern } from '../../db/like.ts';
import { type Tx, withTransaction } from '../../db/pool.ts';
import { AppError } from '../../http/errors.ts';
import { type Messengers, mailSecurityNotice } from '../identity/notify.ts';
import { endPasswordResets } from '../identity/password.ts';
import type { SessionStore } from '../identity/sessions.ts';
import { recordActivity, type UserRecord } from '../identity/users-repository.ts';
import { refuseOwnAccount, type Staff } from './access.ts';
import {
  countOpenSessions,
  findUserByUid,
  setUserState,
  supportView,
  turnOffTwoFactor,
  userSearchPage,
} from './customers-repository.ts';
import { recordStaffAction } from './trail.ts';

/** Users whose email, phone or uid contains `q` (all when empty), newest first, with the total. */
export function searchUsers(db: pg.Pool, q: { q: string; page: number; limit: number }) {
  return userSearchPage(db, containsPattern(q.q), q.limit, (q.page - 1) * q.limit);
}

/** A user by uid, for the console; 404 `admin.user.not_found` when there is none. */
export async function userByUid(
  db: pg.Pool,
  uid: string,
): Promise<
  Pick<UserRecord, 'id' | 'uid' | 'email' | 'role' | 'level' | 'state' | 'otp' | 'anti_phishing_phrase'>
> {
  const user = await findUserByUid(db, uid);
  if (!user) throw new AppError(404, [ADMIN_ERRORS.userNotFound]);
  return user;
}

/** Who a user is, as every list and detail of the console (and the CLI's `user show`) starts. */
export function userSummary(user: Pick<UserRecord, 'uid' | 'email' | 'role' | 'level' | 'state' | 'otp'>) {
  return {
    uid: user.uid,
    email: user.email,
    role: user.role,
    level: user.level,
    state: user.state,
    otp: user.otp,
  };
}

/**
 * Everything support sees of one user: profile, labels, phones, sessions (open at `now`, the app's clock), API
 * keys, balances, recent log.
 */
export async function userDetail(db: pg.Pool, uid: string, now: Date) {
  const user = await userByUid(db, uid);
  const { labels, phones, profiles, sessions, apiKeys, balances, activity, orders, deposits, withdrawals } =
    await supportView(db, user.id, now);
  return {
    ...userSummary(user),
    labels,
    phones,
    profile: profiles[0] ?? null,
    sessions: sessions.map((s) => ({ ...s, id: String(s.id).slice(0, 8) })),
    api_keys: apiKeys,
    balances,
    activity,
    orders,
    deposits,
    withdrawals,
  };
}

/**
 * Locks (or unlocks) an account: a locked user cannot log in and every session ends at once. Staff cannot lock or
 * unlock themselves (403 `admin.user.own_account`). Recorded with the reason in the trail, in the same transaction.
 */
export async function setUserLocked(
  db: pg.Pool,
  sessions: SessionStore,
  staff: Staff,
  uid: string,
  locked: boolean,
  reason: string,
) {
  const user = await userByUid(db, uid);
  refuseOwnAccount(staff, user.id);
  // A closed account stays closed: an unlock must not open it again (its keys and data wait for erasure).
  if (user.state === 'deleted') throw new AppError(422, [ADMIN_ERRORS.accountClosed]);
  const state = locked ? 'locked' : 'active';
  await withTransaction(db, async (tx) => {
    await setUserState(tx, user.id, state);
    if (locked) {
      await endPasswordResets(tx, user.id);
      await recordStaffSessionEnd(tx, user.id, staff, 'lock');
    }
    await recordStaffAction(tx, staff, locked ? 'user.lock' : 'user.unlock', uid, {
      before: { state: user.state },
      after: { state, reason },
    });
  });
  if (locked) await sessions.revokeAllForUser(user.id, undefined, 'staff');
  return { uid, state };
}

/**
 * Ends every session of a user; not the staff member's own (403 `admin.user.own_account`; they sign out in
 * Settings like anyone). The trail line is written first, in a transaction that commits only once the sessions
 * ended, so the database's refusal of a line about one's own account stops the action too.
 */
export async function endUserSessions(db: pg.Pool, sessions: SessionStore, staff: Staff, uid: string) {
  const user = await userByUid(db, uid);
  refuseOwnAccount(staff, user.id);
  const open = await countOpenSessions(db, user.id, sessions.liveness().now);
  await withTransaction(db, async (tx) => {
    await recordStaffAction(tx, staff, 'user.sessions.end', uid, {
      before: { sessions: open },
      after: { sessions: 0 },
    });
    await recordStaffSessionEnd(tx, user.id, staff, 'sessions');
    await sessions.revokeAllForUser(user.id, undefined, 'staff');
  });
  return { uid, ended: open };
}

/**
 * The user's own security log says that staff ended their sessions (`session.end`, reason `staff`), and on what
 * occasion (`lock`: the account was locked; `sessions`: support ended them), in the staff action's transaction.
 */
function recordStaffSessionEnd(tx: Tx, userId: string, staff: Staff, occasion: 'lock' | 'sessions') {
  return recordActivity(tx, {
    userId,
    action: 'session.end',
    result: 'succeed',
    topic: 'session',
    ip: staff.ip,
    userAgent: null,
    data: { reason: 'staff', occasion },
  });
}

/**
 * Turns a user's two-factor off after support checked their identity (a lost authenticator): every session ends,
 * the `otp` entry in their security log starts the withdrawal hold, as when they turn it off themselves, and they
 * get a security notice by email. Staff cannot reset their own (403 `admin.user.own_account`): a second staff
 * member checks their identity. Recorded with the reason in the trail, in the same transaction.
 */
export async function resetTwoFactor(
  db: pg.Pool,
  sessions: SessionStore,
  messengers: Messengers,
  staff: Staff,
  uid: string,
  reason: string,
) {
  const user = await userByUid(db, uid);
  refuseOwnAccount(staff, user.id);
  if (!user.otp) throw new AppError(422, [ADMIN_ERRORS.twoFactorOff]);
  await withTransaction(db, async (tx) => {
    await turnOffTwoFactor(tx, user.id);
    await endPasswordResets(tx, user.id);
    await recordActivity(tx, {
      userId: user.id,
      action: 'otp.reset_by_staff',
      result: 'succeed',
      topic: 'otp',
      ip: staff.ip,
      userAgent: null,
    });
    await recordStaffAction(tx, staff, 'user.2fa_reset', uid, {
      before: { otp: true },
      after: { otp: false, reason },
    });
  });
  await sessions.revokeAllForUser(user.id, undefined, 'staff');
  await mailSecurityNotice(
    messengers,
    user.email,
    'Two-factor authentication was reset by our support team',
    user.anti_phishing_phrase,
  );
  return { uid, otp: false };
}
