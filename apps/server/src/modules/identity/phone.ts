import { ERRORS, mobileFromInternational } from '@exchange/shared';
import { SmsRejected } from '../../adapters/sms/port.ts';
import { dateOf } from '../../clock.ts';
import { withTransaction } from '../../db/pool.ts';
import { invalid } from '../../http/errors.ts';
import { checkCodes, issueCode } from './codes.ts';
import { phoneChangePending, phoneChangeStarted } from './codes-repository.ts';
import { decrypt } from './crypto.ts';
import { mailSecurityNotice, smsCode } from './notify.ts';
import { requireTotp } from './otp.ts';
import { latestPhoneCountry, phoneTaken, replacePhonesWithVerified } from './phones-repository.ts';
import type { IdentityDeps, RequestOrigin } from './registration.ts';
import { markOtpVerified, otpVerifiedWithin } from './sessions-repository.ts';
import { consumeTotp, type TotpCheck } from './totp.ts';
import { recordActivity, setLabel, type UserRecord } from './users-repository.ts';

/** After a passed two-factor step, a phone change may be started within this many minutes. */
const SECOND_FACTOR_GRACE_MINUTES = 5;

/** The E.164 digits of a phone change's number (issue 32), or refused as the shared schemas refuse it. */
function mobile(phone: string, country?: string): string {
  const number = mobileFromInternational(phone, country);
  if (!number) throw invalid(ERRORS.phoneInvalid);
  return number;
}

/**
 * A new number the SMS provider refuses (not valid, not reachable, unsubscribed: Twilio's 21211, 21612, 21408,
 * 21610, 21614) is refused as a number the schemas refuse; any other failure stays the server's.
 */
function refusedNumber(err: unknown): never {
  if (err instanceof SmsRejected && err.recipient) throw invalid(ERRORS.phoneInvalid);
  throw err;
}

/** The two-factor step of a phone change: a valid code marks this session as checked for a few minutes. */
export async function verifyPhoneChangeOtp(
  deps: IdentityDeps,
  user: UserRecord,
  sessionId: string | undefined,
  code: string,
) {
  await requireTotp(deps, user, code);
  if (sessionId) await markOtpVerified(deps.db, sessionId, dateOf(deps.clock));
}

async function secondFactorPassed(
  deps: IdentityDeps,
  user: UserRecord,
  sessionId: string | undefined,
  code?: string,
): Promise<TotpCheck> {
  if (!user.otp || !user.otp_secret_enc) return 'ok';
  if (code) return consumeTotp(deps, user.id, decrypt(deps.keys, user.otp_secret_enc), code);
  if (!sessionId) return 'invalid';
  const recent = await otpVerifiedWithin(deps.db, sessionId, SECOND_FACTOR_GRACE_MINUTES, dateOf(deps.clock));
  return recent ? 'ok' : 'invalid';
}

/**
 * Starts a phone change: two-factor first when enabled (a code now, or the session's recent check), then a
 * 6-digit code by SMS to the new number. A number verified on another account is refused.
 */
export async function startPhoneChange(
  deps: IdentityDeps,
  user: UserRecord,
  sessionId: string | undefined,
  input: { phone_number: string; country?: string | undefined; otp_code?: string | undefined },
) {
  const check = await secondFactorPassed(deps, user, sessionId, input.otp_code);
  if (check !== 'ok') {
    if (!input.otp_code) throw invalid(ERRORS.totpRequired);
    throw invalid(check === 'used' ? ERRORS.totpUsed : ERRORS.totpInvalid);
  }
  const number = mobile(input.phone_number, input.country);
  if (await phoneTaken(deps.db, number, user.id)) throw invalid(ERRORS.phoneExists);
  const code = await issueCode(deps, {
    purpose: 'phone_change',
    channel: 'sms',
    destination: number,
    userId: user.id,
    length: 6,
  });
  await smsCode(deps, number, 'phone_change', code).catch(refusedNumber);
}

/** Sends the phone-change code again (once a minute), only for a change this user started. */
export async function resendPhoneChangeCode(deps: IdentityDeps, user: UserRecord, phone: string) {
  const number = mobile(phone);
  const started = await phoneChangeStarted(deps.db, number, user.id);
  if (!started) throw invalid(ERRORS.phoneChangeNotStarted);
  const code = await issueCode(deps, {
    purpose: 'phone_change',
    channel: 'sms',
    destination: number,
    userId: user.id,
    length: 6,
  });
  await smsCode(deps, number, 'phone_change', code).catch(refusedNumber);
}

/**
 * Confirms the new number with its SMS code: it replaces the account's phone. The old number keeps no login and
 * gets no codes; the country stored is the one chosen for the new number (else the old number's).
 */
export async function confirmPhoneChange(
  deps: IdentityDeps,
  user: UserRecord,
  input: { phone_number: string; verification_code: string; country?: string },
  origin: RequestOrigin,
) {
  const number = mobile(input.phone_number, input.country);
  const started = await phoneChangePending(deps.db, number, user.id);
  const [ok] = started
    ? await checkCodes(deps, [
        { purpose: 'phone_change', channel: 'sms', destination: number, code: input.verification_code },
      ])
    : [false];
  if (!ok) throw invalid(ERRORS.phoneCodeInvalid);
  await withTransaction(deps.db, async (tx) => {
    // Verified by another account since the change started: one number names one account.
    if (await phoneTaken(tx, number, user.id)) throw invalid(ERRORS.phoneExists);
    const previousCountry = await latestPhoneCountry(tx, user.id);
    await replacePhonesWithVerified(tx, user.id, input.country || previousCountry || '', number);
    await setLabel(tx, user.id, 'phone', 'verified');
    await recordActivity(tx, {
      userId: user.id,
      action: 'phone.change',
      result: 'succeed',
      topic: 'phone',
      ...origin,
    });
  });
  await mailSecurityNotice(deps, user.email, 'Your phone number was changed', user.anti_phishing_phrase);
}
