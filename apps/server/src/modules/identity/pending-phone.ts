import { ERRORS, fullPhoneNumber, mobileFromInternational, REGISTRATION_COUNTRIES } from '@exchange/shared';
import { AppError, invalid } from '../../http/errors.ts';
import { windowLimiter } from './limiter.ts';
import type { IdentityDeps } from './registration.ts';
import { sendVerificationCodes } from './registration.ts';
import { registrationTokenValid } from './registration-token.ts';
import { findUserByEmail, replaceLatestPhone } from './users-repository.ts';

/**
 * How many phone changes one email may ask for per window, from all addresses together (the per-address limit
 * of the route comes on top).
 */
export const PENDING_PHONE_POLICY = { changesPerEmail: 5, windowMinutes: 60 } as const;

/**
 * Replaces the phone of a pending registration (the "Change number" step before verification) and sends the new
 * number a code. Needs the registration token: an unknown email, a wrong or expired token and an account that
 * is not pending (with a wrong token) all get the one refusal `identity.user.invalid_registration_token`, so the
 * route tells nobody whether an email has a registration. At most {@link PENDING_PHONE_POLICY} changes per email
 * and window, counted before anything is looked up.
 */
export async function changePendingPhone(
  deps: IdentityDeps,
  input: { email: string; country_code: string; phone_number: string; registration_token: string },
) {
  const email = input.email.trim().toLowerCase();
  const limiter = windowLimiter(
    deps,
    'pending-phone',
    PENDING_PHONE_POLICY.changesPerEmail,
    PENDING_PHONE_POLICY.windowMinutes * 60_000,
  );
  if (deps.config.rateLimits && !(await limiter.take(email))) throw new AppError(429, [ERRORS.rateLimited]);
  const user = await findUserByEmail(deps.db, email);
  if (!user || !registrationTokenValid(deps.keys, user.id, input.registration_token, deps.clock.now()))
    throw invalid(ERRORS.registrationTokenInvalid);
  if (user.state !== 'pending') throw invalid(ERRORS.alreadyVerified);
  // E.164 digits of a mobile number (issue 32), or refused as the shared schema refuses it.
  const phone = mobileFromInternational(fullPhoneNumber(input.country_code, input.phone_number));
  if (!phone) throw invalid(ERRORS.invalidPhone);
  const country = REGISTRATION_COUNTRIES.find((c) => c.dial === input.country_code.replace(/\D/g, ''))?.code;
  await replaceLatestPhone(deps.db, user.id, phone, country ?? null);
  await sendVerificationCodes(deps, user, phone, 'phone');
  return { email: user.email, phone_number: phone };
}
