import { type CompatRegisterInput, ERRORS } from '@exchange/shared';
import { SECRET, withSecret } from '../../adapters/mail/port.ts';
import { withTransaction } from '../../db/pool.ts';
import { invalid } from '../../http/errors.ts';
import { windowLimiter } from './limiter.ts';
import { mailedToken, mailedTokenSubject } from './mailed-token.ts';
import { hashPassword, isBreachedPassword } from './passwords.ts';
import { hasAnyPhone } from './phones-repository.ts';
import type { IdentityDeps, RequestOrigin } from './registration.ts';
import {
  activateConfirmedUser,
  insertPendingEmailUser,
  promoteCompleteUser,
} from './registration-repository.ts';
import { newUid } from './uid.ts';
import {
  findUserByEmail,
  findUserById,
  recordActivity,
  setLabel,
  type UserRecord,
  userEntity,
} from './users-repository.ts';

/**
 * BaseApp 2.6's identity flows, served only with BASEAPP_COMPAT (SECURITY.md says what each weakens): sign-up with
 * email and password, confirmation by the mailed link's token, and the rest of the profile (phone, names,
 * country) asked before level 2.
 */

/** Where the confirmation link leads: BaseApp's confirmation screen, which posts the token back. */
export const CONFIRMATION_PATH = '/accounts/confirmation';

/** A new confirmation link is mailed at most once a minute per account. */
const RESEND_SECONDS = 60;

/**
 * Mails the account confirmation link (`<PUBLIC_URL>/accounts/confirmation?confirmation_token=…`, the address
 * BaseApp's screen reads). At most one a minute per account: a quicker request is answered the same, unsent.
 */
export async function mailConfirmationLink(
  deps: IdentityDeps,
  user: { id: string; email: string },
  publicUrl: string,
): Promise<void> {
  const key = user.email.toLowerCase();
  const limiter = windowLimiter(deps, 'confirmation-link', 1, RESEND_SECONDS * 1000);
  if (!(await limiter.take(key))) return;
  const token = mailedToken(deps.keys, 'email_confirm', user.id, deps.clock.now());
  await deps.mail.send({
    to: user.email,
    template: 'account_confirmation',
    subject: 'Confirm your account',
    text: withSecret`Open this link within 24 hours to confirm your account:\n\n${publicUrl}${CONFIRMATION_PATH}?confirmation_token=${SECRET}\n\nIf you did not register, ignore this email.`,
    secret: token,
  });
}

/**
 * Barong's sign-up: a pending, level-0 account with only an email and a password, and a mailed confirmation link.
 * The same checks as the spec's registration apply to what is given (password rule, breached passwords, a taken
 * email). No session is opened (Barong opened one; BaseApp does not use it).
 */
export async function registerByEmail(
  deps: IdentityDeps,
  input: CompatRegisterInput,
  origin: RequestOrigin,
  publicUrl: string,
) {
  if (isBreachedPassword(input.password, input.email)) throw invalid(ERRORS.passwordWeak);
  const digest = await hashPassword(input.password);
  const userId = await withTransaction(deps.db, async (tx) => {
    const id = await insertPendingEmailUser(tx, {
      uid: newUid(),
      email: input.email,
      passwordDigest: digest,
    });
    if (!id) throw invalid(ERRORS.emailTaken);
    await recordActivity(tx, {
      userId: id,
      action: 'signup',
      result: 'succeed',
      topic: 'account',
      ...origin,
    });
    return id;
  });
  const user = (await findUserById(deps.db, userId)) as UserRecord;
  await mailConfirmationLink(deps, user, publicUrl);
  return userEntity(deps.db, user);
}

/**
 * Confirms an account with the mailed link's token: its email is verified and it becomes active at level 1
 * (Barong's level after the email). A forged, malformed or expired token is refused with
 * `identity.user.invalid_token`; an account already active (a link used twice) or gone with Barong's
 * `identity.user.active_or_doesnt_exist`. No session is opened: the user logs in next, as BaseApp's screen does.
 */
export async function confirmByToken(deps: IdentityDeps, token: string, origin: RequestOrigin) {
  const userId = mailedTokenSubject(deps.keys, 'email_confirm', token, deps.clock.now());
  if (!userId) throw invalid(ERRORS.invalidConfirmationToken);
  const user = await findUserById(deps.db, userId);
  if (user?.state !== 'pending') throw invalid(ERRORS.activeOrDoesntExist);
  await withTransaction(deps.db, async (tx) => {
    await setLabel(tx, user.id, 'email', 'verified');
    await activateConfirmedUser(tx, user.id);
    await recordActivity(tx, {
      userId: user.id,
      action: 'email.confirm',
      result: 'succeed',
      topic: 'account',
      ...origin,
    });
  });
  return userEntity(deps.db, (await findUserById(deps.db, user.id)) as UserRecord);
}

/**
 * Barong's `POST /identity/users/email/generate_code` for an account that registered with email and password
 * only: the link again. Unknown, active and spec-registered accounts get the same answer and nothing.
 */
export async function resendConfirmationLink(deps: IdentityDeps, email: string, publicUrl: string) {
  const user = await findUserByEmail(deps.db, email);
  if (user?.state !== 'pending' || (await hasPhone(deps, user.id))) return;
  await mailConfirmationLink(deps, user, publicUrl);
}

/** True when the account registered the spec's way (with a phone to verify). */
export async function hasPhone(deps: IdentityDeps, userId: string): Promise<boolean> {
  return hasAnyPhone(deps.db, userId);
}

/**
 * Raises a level-1 account to level 2 once what the spec's registration asks is there: the email and the phone
 * verified, and a profile with first and last name and country. BASEAPP_COMPAT's accounts get there through
 * `POST /resource/phones` + `/phones/verify` and `POST /resource/profiles`, in either order.
 * @returns the new level, or undefined when nothing changed.
 */
export async function promoteWhenComplete(deps: IdentityDeps, userId: string): Promise<number | undefined> {
  return promoteCompleteUser(deps.db, userId);
}
