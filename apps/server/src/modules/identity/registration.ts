import {
  CODE_LENGTH,
  ERRORS,
  mobileFromNational,
  type RegisterInput,
  type VerifyAccountInput,
} from '@exchange/shared';
import type pg from 'pg';
import type { Clock } from '../../clock.ts';
import { withTransaction } from '../../db/pool.ts';
import { invalid } from '../../http/errors.ts';
import type { CountryLookup } from '../../net/geo-country.ts';
import { checkCodes, issueCode } from './codes.ts';
import type { ServerKeys } from './crypto.ts';
import { type Messengers, mailCode, smsCode } from './notify.ts';
import { hashPassword, isBreachedPassword } from './passwords.ts';
import { insertPhone, phoneTaken, validateLatestPhone } from './phones-repository.ts';
import { insertRegistrationProfile } from './profile-repository.ts';
import { activateVerifiedUser, insertPendingUser, raiseToEmailLevel } from './registration-repository.ts';
import { registrationToken } from './registration-token.ts';
import { newUid } from './uid.ts';
import { findUserByEmail, latestPhone, recordActivity, setLabel } from './users-repository.ts';

/** What identity services need. */
export interface IdentityDeps extends Messengers {
  db: pg.Pool;
  keys: ServerKeys;
  /** The app's clock: code expiry and resend gaps, lockouts and attempt windows are measured on it. */
  clock: Clock;
  /** The country of a login's address (GEOIP_COUNTRY_DB); absent or empty: logins are checked for devices only. */
  geoCountry?: CountryLookup;
  /**
   * `rateLimits` off only for load tests on loopback; `baseAppCompat` (BASEAPP_COMPAT) serves BaseApp's flows;
   * `publicUrl` is where mailed links point.
   */
  config: {
    rateLimits: boolean;
    /** Login attempts per account and 10 minutes; LOGIN_POLICY's 20 when not given. */
    loginAttemptsPerWindow?: number;
    split?: boolean;
    baseAppCompat?: boolean;
    publicUrl?: string;
  };
}

/** Where a request came from, for the security log. */
export interface RequestOrigin {
  ip: string;
  userAgent: string | null;
}

/**
 * Creates a pending, level-0 account with its profile and unverified phone, and sends a 6-digit code to the
 * email and to the phone. Refuses weak or breached passwords (`password.weak`) and taken emails. The answer
 * carries the registration token this browser needs to change the number before verifying.
 */
export async function register(deps: IdentityDeps, input: RegisterInput, origin: RequestOrigin) {
  if (isBreachedPassword(input.password, input.email)) throw invalid(ERRORS.passwordWeak);
  // E.164 digits (issue 32); the shared schema has refused a number that cannot be a mobile of the country.
  const phone = mobileFromNational(input.phone_number, input.country);
  if (!phone) throw invalid(ERRORS.invalidPhone);
  if (await phoneTaken(deps.db, phone)) throw invalid(ERRORS.phoneExists);
  const digest = await hashPassword(input.password);
  const userId = await withTransaction(deps.db, async (tx) => {
    const id = await insertPendingUser(
      tx,
      { uid: newUid(), email: input.email, passwordDigest: digest },
      input.account_type,
    );
    if (!id) throw invalid(ERRORS.emailTaken);
    await insertRegistrationProfile(tx, id, {
      firstName: input.first_name.trim(),
      middleName: input.middle_name?.trim() || null,
      lastName: input.last_name.trim(),
      country: input.country,
    });
    await insertPhone(tx, id, input.country, phone);
    await recordActivity(tx, {
      userId: id,
      action: 'signup',
      result: 'succeed',
      topic: 'account',
      ...origin,
    });
    return id;
  });
  await sendVerificationCodes(deps, { id: userId, email: input.email }, phone, 'both');
  return {
    email: input.email,
    phone_number: phone,
    registration_token: registrationToken(deps.keys, userId, deps.clock.now()),
  };
}

/** Issues and sends the registration codes on one or both channels. */
export async function sendVerificationCodes(
  deps: IdentityDeps,
  user: { id: string; email: string },
  phone: string,
  channels: 'email' | 'phone' | 'both',
): Promise<void> {
  if (channels !== 'phone') {
    const code = await issueCode(deps, {
      purpose: 'register',
      channel: 'email',
      destination: user.email,
      userId: user.id,
      length: CODE_LENGTH.verification,
    });
    await mailCode(deps, user.email, 'register', code);
  }
  if (channels !== 'email') {
    const code = await issueCode(deps, {
      purpose: 'register',
      channel: 'sms',
      destination: phone,
      userId: user.id,
      length: CODE_LENGTH.verification,
    });
    await smsCode(deps, phone, 'register', code);
  }
}

/**
 * Checks both registration codes; when both match, labels email and phone verified, validates the phone and
 * makes the account active at level 2. Unknown or already active accounts get the same refusal as wrong codes.
 */
export async function verifyAccount(deps: IdentityDeps, input: VerifyAccountInput, origin: RequestOrigin) {
  const user = await findUserByEmail(deps.db, input.email);
  const phone = user ? await latestPhone(deps.db, user.id) : undefined;
  if (!user || !phone || user.state !== 'pending') {
    throw invalid(ERRORS.invalidEmailCode, ERRORS.invalidPhoneCode);
  }
  const [emailOk, phoneOk] = await checkCodes(deps, [
    { purpose: 'register', channel: 'email', destination: user.email, code: input.email_otp },
    { purpose: 'register', channel: 'sms', destination: phone.number, code: input.phone_otp },
  ]);
  if (!emailOk || !phoneOk) {
    await recordActivity(deps.db, {
      userId: user.id,
      action: 'verify_account',
      result: 'failed',
      topic: 'account',
      ...origin,
    });
    throw invalid(
      ...(emailOk ? [] : [ERRORS.invalidEmailCode]),
      ...(phoneOk ? [] : [ERRORS.invalidPhoneCode]),
    );
  }
  await withTransaction(deps.db, async (tx) => {
    // Another account verified this number meanwhile: one number names one account (issue 32).
    if (await phoneTaken(tx, phone.number, user.id)) throw invalid(ERRORS.phoneExists);
    await setLabel(tx, user.id, 'email', 'verified');
    await setLabel(tx, user.id, 'phone', 'verified');
    await validateLatestPhone(tx, user.id);
    await activateVerifiedUser(tx, user.id);
    await recordActivity(tx, {
      userId: user.id,
      action: 'verify_account',
      result: 'succeed',
      topic: 'account',
      ...origin,
    });
  });
  return { email: user.email, level: 2, state: 'active' };
}

/** Resends a registration code to a pending account; answers the same for unknown emails. */
export async function resendVerificationCode(deps: IdentityDeps, email: string, channel: 'email' | 'phone') {
  const user = await findUserByEmail(deps.db, email);
  const phone = user ? await latestPhone(deps.db, user.id) : undefined;
  if (!user || !phone || user.state !== 'pending') return;
  await sendVerificationCodes(deps, user, phone.number, channel);
}

/** Confirms only the email of a pending registration (level 1); the phone code completes it later. */
export async function confirmEmail(deps: IdentityDeps, email: string, code: string, origin: RequestOrigin) {
  const user = await findUserByEmail(deps.db, email);
  const [ok] = user
    ? await checkCodes(deps, [{ purpose: 'register', channel: 'email', destination: user.email, code }])
    : [false];
  if (!user || !ok) throw invalid(ERRORS.invalidEmailCode);
  await withTransaction(deps.db, async (tx) => {
    await setLabel(tx, user.id, 'email', 'verified');
    await raiseToEmailLevel(tx, user.id);
    await recordActivity(tx, {
      userId: user.id,
      action: 'email.confirm',
      result: 'succeed',
      topic: 'account',
      ...origin,
    });
  });
  return { email: user.email, level: Math.max(user.level, 1) };
}
