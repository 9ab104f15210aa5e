import { ERRORS } from '@exchange/shared';
import type pg from 'pg';
import { SECRET, withSecret } from '../../adapters/mail/port.ts';
import { dateOf } from '../../clock.ts';
import { withTransaction } from '../../db/pool.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { randomToken, sha256 } from './crypto.ts';
import { beginAttempt, clearFailures, failAttempt, lockoutKey, releaseAttempt } from './lockout.ts';
import { mailSecurityNotice, phishingLine } from './notify.ts';
import {
  endResetsOf,
  insertPasswordReset,
  resetMailedSince,
  resetTokenUnused,
  setPasswordDigest,
  useResetToken,
} from './password-repository.ts';
import { hashPassword, isBreachedPassword, verifyPassword } from './passwords.ts';
import type { IdentityDeps, RequestOrigin } from './registration.ts';
import type { SessionStore } from './sessions.ts';
import { findUserByEmail, findUserById, recordActivity, type UserRecord } from './users-repository.ts';

/** A reset link lives an hour; a new one is mailed at most once a minute per account. */
export const RESET_POLICY = { ttlMinutes: 60, resendSeconds: 60 } as const;

/**
 * Mails a password-reset link (`<origin>/password-reset/<token>`) to an active account. Unknown emails get the
 * same answer and nothing is sent, so the endpoint tells nobody which emails exist.
 */
export async function requestPasswordReset(
  deps: IdentityDeps,
  email: string,
  appOrigin: string,
): Promise<void> {
  const user = await findUserByEmail(deps.db, email);
  if (user?.state !== 'active') return;
  // The resend gap and the link's hour are measured on the app's clock (a test moves it instead of waiting).
  const now = deps.clock.now();
  if (await resetMailedSince(deps.db, user.id, new Date(now - RESET_POLICY.resendSeconds * 1000))) return;
  const token = randomToken(32);
  await insertPasswordReset(deps.db, {
    tokenHash: sha256(token),
    userId: user.id,
    at: new Date(now),
    expiresAt: new Date(now + RESET_POLICY.ttlMinutes * 60_000),
  });
  await deps.mail.send({
    to: user.email,
    template: 'password_reset',
    subject: 'Reset your password',
    text: withSecret`Open this link within an hour to choose a new password:\n\n${appOrigin}/password-reset/${SECRET}\n\nIf you did not ask for this, ignore this email; your password stays as it is.${phishingLine(user.anti_phishing_phrase)}`,
    secret: token,
  });
}

/**
 * Ends every outstanding password-reset link of an account. Every password change or reset, every two-factor
 * change, and a staff lock or two-factor reset call it: a link mailed before must not outlive the state it was
 * issued in (a link from before a password change would otherwise undo the change).
 */
export async function endPasswordResets(db: pg.Pool | pg.PoolClient, userId: string): Promise<void> {
  await endResetsOf(db, userId);
}

async function setPassword(
  deps: IdentityDeps & { sessions: SessionStore },
  user: UserRecord,
  password: string,
  origin: RequestOrigin,
  action: string,
): Promise<void> {
  if (isBreachedPassword(password, user.email)) throw invalid(ERRORS.passwordWeak);
  const digest = await hashPassword(password);
  await withTransaction(deps.db, async (tx) => {
    await setPasswordDigest(tx, user.id, digest, dateOf(deps.clock));
    await clearFailures(tx, user.id);
    await endPasswordResets(tx, user.id);
    await recordActivity(tx, { userId: user.id, action, result: 'succeed', topic: 'password', ...origin });
  });
  await deps.sessions.revokeAllForUser(user.id);
  await mailSecurityNotice(deps, user.email, 'Your password was changed', user.anti_phishing_phrase);
}

/** Sets a new password with a reset token; the token works once, and every session of the account ends. */
export async function confirmPasswordReset(
  deps: IdentityDeps & { sessions: SessionStore },
  token: string,
  password: string,
  origin: RequestOrigin,
): Promise<void> {
  const userId = await useResetToken(deps.db, sha256(token), dateOf(deps.clock));
  const user = userId === undefined ? undefined : await findUserById(deps.db, userId);
  // A locked (or otherwise inactive) account gets no new password by mail.
  if (user?.state !== 'active') throw invalid(ERRORS.invalidResetToken);
  await setPassword(deps, user, password, origin, 'password.reset');
}

/**
 * Changes the password of a signed-in user after checking the old one; every session ends, this one too. A wrong
 * old password counts against the account like a failed login and blocks it the same way (then login and this
 * call both answer the block), so a stolen session cannot guess the password without limit.
 */
export async function changePassword(
  deps: IdentityDeps & { sessions: SessionStore },
  user: UserRecord,
  input: { old_password: string; new_password: string },
  origin: RequestOrigin,
): Promise<void> {
  // Counted before the hash and the lock checked after it, as for a login (see checkCredentials in login.ts).
  const key = lockoutKey(user.id, '');
  const attempt = await beginAttempt(deps, key);
  if (!(await verifyPassword(user.password_digest, input.old_password))) {
    await recordActivity(deps.db, {
      userId: user.id,
      action: 'password.change',
      result: 'failed',
      topic: 'password',
      ...origin,
    });
    await failAttempt(deps, key, attempt);
    throw new AppError(400, [ERRORS.wrongOldPassword]);
  }
  await releaseAttempt(deps, key);
  if (input.old_password === input.new_password) throw new AppError(400, [ERRORS.samePassword]);
  await setPassword(deps, user, input.new_password, origin, 'password.change');
}

/** True while a password-reset token is unused and unexpired (the reset page checks its link first). */
export async function resetTokenValid(deps: IdentityDeps, token: string): Promise<boolean> {
  return resetTokenUnused(deps.db, sha256(token), dateOf(deps.clock));
}
