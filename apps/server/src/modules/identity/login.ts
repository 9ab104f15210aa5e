import {
  CODE_LENGTH,
  ERRORS,
  type LoginInput,
  phoneLookupKey,
  type ResendLoginCodeInput,
} from '@exchange/shared';
import type pg from 'pg';
import { AppError } from '../../http/errors.ts';
import { checkCodes, issueCode } from './codes.ts';
import { mailConfirmationLink } from './compat.ts';
import { decrypt } from './crypto.ts';
import { loginAllowedFrom } from './ip-whitelist.ts';
import { windowLimiter } from './limiter.ts';
import {
  assertNotBlocked,
  beginAttempt,
  clearFailures,
  failAttempt,
  LOGIN_POLICY,
  lockoutKey,
  releaseAttempt,
} from './lockout.ts';
import { recordSuccessfulLogin } from './new-device.ts';
import { mailCode, smsCode } from './notify.ts';
import { verifyPassword } from './passwords.ts';
import type { IdentityDeps, RequestOrigin } from './registration.ts';
import { sendVerificationCodes } from './registration.ts';
import { registrationToken } from './registration-token.ts';
import type { SessionStore } from './sessions.ts';
import { consumeTotp } from './totp.ts';
import {
  findUserByEmail,
  findUserByPhone,
  latestPhone,
  recordActivity,
  type UserRecord,
  userEntity,
} from './users-repository.ts';

/** The per-account attempt limit, across all addresses. */
const accountLimiter = (deps: IdentityDeps) =>
  windowLimiter(
    deps,
    'login',
    deps.config.loginAttemptsPerWindow ?? LOGIN_POLICY.attemptsPerWindow,
    LOGIN_POLICY.windowMinutes * 60_000,
  );

/** Normalised identifier: lower-case email, or the phone as its E.164 digits (any spelling of one mobile). */
function identifierOf(input: {
  session_type: 'email' | 'phone';
  email?: string;
  phone_number?: string;
}): string {
  return input.session_type === 'phone'
    ? `phone:${phoneLookupKey(input.phone_number ?? '')}`
    : `email:${(input.email ?? '').trim().toLowerCase()}`;
}

async function findAccount(db: pg.Pool, identifier: string): Promise<UserRecord | undefined> {
  const [kind, value] = [
    identifier.slice(0, identifier.indexOf(':')),
    identifier.slice(identifier.indexOf(':') + 1),
  ];
  if (!value) return undefined;
  return kind === 'phone' ? findUserByPhone(db, value) : findUserByEmail(db, value);
}

/** A login attempt counted against the lockout: its key, the identifier it named and its number. */
interface Attempt {
  key: string;
  identifier: string;
  number: number;
}

/**
 * Records a failed step in the security log (when the account exists), settles the attempt counted for it and
 * throws the refusal with the attempts left (or the block once none are left).
 */
async function refuse(
  deps: IdentityDeps,
  attempt: Attempt,
  user: UserRecord | undefined,
  origin: RequestOrigin,
  refusal: { status: number; code: string; reason: string },
): Promise<never> {
  // The attempt is settled first: the lock must not depend on the security log's write.
  const left = await failAttempt(deps, attempt.key, attempt.number, attempt.identifier).catch(
    (err: unknown) => err,
  );
  if (user) {
    await recordActivity(deps.db, {
      userId: user.id,
      action: 'login',
      result: 'failed',
      ...origin,
      data: { reason: refusal.reason },
    });
  }
  if (typeof left !== 'number') throw left;
  throw new AppError(refusal.status, [refusal.code], { left });
}

/**
 * Records a login refused because the account is blocked (failure reason `blocked`) when the account exists,
 * then throws the refusal on; other errors pass through unrecorded.
 */
async function recordBlocked(
  deps: IdentityDeps,
  user: UserRecord | undefined,
  origin: RequestOrigin,
  err: unknown,
): Promise<never> {
  if (user && err instanceof AppError && err.codes.includes(ERRORS.accountBlocked)) {
    await recordActivity(deps.db, {
      userId: user.id,
      action: 'login',
      result: 'failed',
      ...origin,
      data: { reason: 'blocked' },
    });
  }
  throw err;
}

/**
 * First step shared by login and code resend: the attempt is counted (atomically, before the slow password hash,
 * so a burst of concurrent guesses gets no more checks than the limit), the password must match, and the lock
 * is checked again after the hash (attempts that arrived meanwhile may have locked the account: then even the
 * right password is refused). Unknown accounts take the same time and answer the same way as a wrong password.
 * With a right password the attempt is taken back when `endsHere(user)` (nothing else is checked: a right
 * password is no failure); otherwise it stays counted until the second factor fails it or the login completes.
 */
async function checkCredentials(
  deps: IdentityDeps,
  input: { session_type: 'email' | 'phone'; email?: string; phone_number?: string; password: string },
  origin: RequestOrigin,
  endsHere: (user: UserRecord) => boolean,
): Promise<{ user: UserRecord; attempt: Attempt }> {
  const identifier = identifierOf(input);
  const user = await findAccount(deps.db, identifier);
  const key = lockoutKey(user?.id, identifier);
  if (deps.config.rateLimits && !(await accountLimiter(deps).take(key)))
    throw new AppError(429, [ERRORS.rateLimited]);
  const number = await beginAttempt(deps, key).catch((err: unknown) =>
    recordBlocked(deps, user, origin, err),
  );
  const attempt = { key, identifier, number };
  if (!(await verifyPassword(user?.password_digest, input.password)) || !user) {
    return refuse(deps, attempt, user, origin, {
      status: 401,
      code: ERRORS.loginInvalid,
      reason: 'password',
    });
  }
  const settle = endsHere(user) ? releaseAttempt(deps, key) : assertNotBlocked(deps, key);
  await settle.catch((err: unknown) => recordBlocked(deps, user, origin, err));
  return { user, attempt };
}

/**
 * Barong `POST /identity`: the account state the login flow branches on (`pending` goes to verify-account).
 * It takes the login payload and checks the password first, with the same failure counting and the same
 * refusal for an unknown account as for a wrong password, so it never tells whether an email is registered.
 */
export async function identityState(
  deps: IdentityDeps,
  input: ResendLoginCodeInput,
  origin: RequestOrigin,
): Promise<{ state: string; level: number }> {
  const { user } = await checkCredentials(deps, input, origin, () => true);
  return { state: user.state, level: user.level };
}

/** Outcome of a login call: a pending account to verify, or a new session. */
export type LoginResult =
  | {
      kind: 'pending';
      body: {
        email: string;
        phones: { number: string }[];
        level: number;
        state: string;
        /** Lets this browser change the number before verifying (see registration-token.ts). */
        registration_token: string;
      };
    }
  | { kind: 'session'; token: string; body: Record<string, unknown> };

/** The path that sends the emailed or SMS login code (named in a `missing_otp` answer). */
export const LOGIN_CODE_PATH = '/api/v2/barong/identity/sessions/resent_otp';

/** Digits of the emailed or SMS login code: the spec's 5, or 6 with BASEAPP_COMPAT (BaseApp's 2FA box). */
export const loginCodeLength = (deps: IdentityDeps): number =>
  deps.config.baseAppCompat ? CODE_LENGTH.compatLogin : CODE_LENGTH.login;

/**
 * What a `identity.session.missing_otp` answer tells a client about the second step it lacks, next to the code:
 * `otp` (true: an authenticator code), `second_step` (`totp`, `email` or `sms`), `code_length`, and for a sent
 * code `send_code` (the path that sends it) and `code_sent` (true: this answer's login sent it already, as
 * BASEAPP_COMPAT does). The code itself goes in `otp_code` (or `code`) of the next login.
 */
export function missingOtpDetails(
  user: UserRecord,
  sessionType: 'email' | 'phone',
  codeLength: number = CODE_LENGTH.login,
  codeSent = false,
) {
  const totp = Boolean(user.otp && user.otp_secret_enc);
  return {
    otp: totp,
    second_step: totp ? 'totp' : sessionType === 'phone' ? 'sms' : 'email',
    code_length: totp ? CODE_LENGTH.totp : codeLength,
    ...(totp ? {} : { send_code: LOGIN_CODE_PATH, code_sent: codeSent }),
    level: user.level,
    state: user.state,
  };
}

/**
 * Logs in with email or phone and password, then a second factor: the TOTP code (`otp_code`) when two-factor is
 * on, otherwise the 5-digit code sent by `resent_otp` (`code`, or `otp_code` as BaseApp sends every second-step
 * code). A missing second factor answers 401 `identity.session.missing_otp` with {@link missingOtpDetails}.
 * A pending account gets its verification codes again and no session.
 */
export async function login(
  deps: IdentityDeps & { sessions: SessionStore },
  input: LoginInput,
  origin: RequestOrigin,
): Promise<LoginResult> {
  // The second factor this login brings, if any: without one (or for an account that is not active) the
  // attempt ends with the password.
  const secondFactorOf = (u: UserRecord) =>
    u.otp && u.otp_secret_enc ? input.otp_code : (input.code ?? input.otp_code);
  const { user, attempt } = await checkCredentials(
    deps,
    input,
    origin,
    (u) => u.state !== 'active' || !secondFactorOf(u),
  );
  const totpSecret = user.otp ? user.otp_secret_enc : null;
  const secondFactor = secondFactorOf(user);
  if (user.state === 'pending') {
    const phone = await latestPhone(deps.db, user.id);
    if (phone) await sendVerificationCodes(deps, user, phone.number, 'both').catch(() => {});
    else if (deps.config.baseAppCompat && deps.config.publicUrl)
      await mailConfirmationLink(deps, user, deps.config.publicUrl).catch(() => {});
    return {
      kind: 'pending',
      body: {
        email: user.email,
        phones: phone ? [{ number: phone.number }] : [],
        level: user.level,
        state: user.state,
        registration_token: registrationToken(deps.keys, user.id, deps.clock.now()),
      },
    };
  }
  if (user.state !== 'active') {
    await recordActivity(deps.db, {
      userId: user.id,
      action: 'login',
      result: 'failed',
      ...origin,
      data: { reason: 'not_active' },
    });
    throw new AppError(401, [ERRORS.userNotActive]);
  }

  if (!secondFactor) {
    // BaseApp never asks for the emailed code: with BASEAPP_COMPAT the login sends it (one a minute at most;
    // within the minute the code already sent stands).
    const sent =
      !totpSecret && deps.config.baseAppCompat && (await sendCodeOnce(deps, user, input.session_type));
    const details = missingOtpDetails(user, input.session_type, loginCodeLength(deps), Boolean(sent));
    throw new AppError(401, [ERRORS.missingOtp], details);
  }
  if (totpSecret) {
    const check = await consumeTotp(deps, user.id, decrypt(deps.keys, totpSecret), secondFactor);
    if (check !== 'ok') {
      const code = check === 'used' ? ERRORS.otpUsed : ERRORS.invalidOtp;
      await refuse(deps, attempt, user, origin, { status: 403, code, reason: 'otp' });
    }
  } else {
    const destination = await loginCodeDestination(deps.db, user, input.session_type);
    const [ok] = await checkCodes(deps, [
      {
        purpose: 'login',
        channel: input.session_type === 'phone' ? 'sms' : 'email',
        destination,
        code: secondFactor,
      },
    ]);
    if (!ok)
      await refuse(deps, attempt, user, origin, { status: 403, code: ERRORS.invalidCode, reason: 'code' });
  }

  if (!(await loginAllowedFrom(deps, user, origin.ip))) await refuseAddress(deps, user, attempt, origin);

  await clearFailures(deps.db, user.id, attempt.identifier);
  const { token, csrfToken } = await deps.sessions.create(user.id, origin.ip, origin.userAgent);
  await recordSuccessfulLogin(deps, user, origin);
  return { kind: 'session', token, body: { ...(await userEntity(deps.db, user)), csrf_token: csrfToken } };
}

/**
 * Refuses a login whose password and second factor were right from an address the account's IP whitelist does not
 * hold: 403 `identity.session.ip_not_allowed`, logged under `ip_whitelist`. It comes only after both factors, so
 * whoever lacks them gets the usual wrong-password or wrong-code answer and learns nothing about the list (nor
 * whether the account exists); someone holding both learns only that this address is not allowed. Right
 * credentials are no failure: the attempt is taken back (the block still wins if it set meanwhile).
 */
async function refuseAddress(
  deps: IdentityDeps,
  user: UserRecord,
  attempt: Attempt,
  origin: RequestOrigin,
): Promise<never> {
  await releaseAttempt(deps, attempt.key).catch((err: unknown) => recordBlocked(deps, user, origin, err));
  await recordActivity(deps.db, {
    userId: user.id,
    action: 'login',
    result: 'failed',
    topic: 'ip_whitelist',
    ...origin,
    data: { reason: 'ip_not_allowed' },
  });
  throw new AppError(403, [ERRORS.ipNotAllowedForLogin]);
}

async function loginCodeDestination(
  db: pg.Pool,
  user: UserRecord,
  sessionType: 'email' | 'phone',
): Promise<string> {
  if (sessionType === 'email') return user.email;
  return (await latestPhone(db, user.id))?.number ?? '';
}

/**
 * Sends the login code (5 digits; 6 with BASEAPP_COMPAT) to the account's email or phone. The password is checked
 * first (with the same failure counting as login), so codes cannot be sprayed at other people's accounts.
 */
export async function sendLoginCode(
  deps: IdentityDeps,
  input: ResendLoginCodeInput,
  origin: RequestOrigin,
): Promise<void> {
  const { user } = await checkCredentials(deps, input, origin, () => true);
  if (user.state !== 'active') throw new AppError(401, [ERRORS.userNotActive]);
  await issueLoginCode(deps, user, input.session_type);
}

async function issueLoginCode(deps: IdentityDeps, user: UserRecord, sessionType: 'email' | 'phone') {
  const channel = sessionType === 'phone' ? 'sms' : 'email';
  const destination = await loginCodeDestination(deps.db, user, sessionType);
  const code = await issueCode(deps, {
    purpose: 'login',
    channel,
    destination,
    userId: user.id,
    length: loginCodeLength(deps),
  });
  if (channel === 'sms') await smsCode(deps, destination, 'login', code);
  else await mailCode(deps, destination, 'login', code, user.anti_phishing_phrase);
}

/**
 * BASEAPP_COMPAT's automatic login code: sent unless one went out less than a minute ago (that one stands).
 * @returns true when this call sent a code.
 */
async function sendCodeOnce(deps: IdentityDeps, user: UserRecord, sessionType: 'email' | 'phone') {
  try {
    await issueLoginCode(deps, user, sessionType);
    return true;
  } catch (err) {
    if (err instanceof AppError && err.status === 429) return false;
    throw err;
  }
}
