import { ERRORS } from '@exchange/shared';
import QRCode from 'qrcode';
import { dateOf } from '../../clock.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { decrypt, encrypt } from './crypto.ts';
import { mailSecurityNotice } from './notify.ts';
import { clearOtp, enableOtpWithStep, setPendingOtpSecret } from './otp-repository.ts';
import { endPasswordResets } from './password.ts';
import type { IdentityDeps, RequestOrigin } from './registration.ts';
import { consumeTotp, matchTotpStep, newTotpSecret, totpUrl } from './totp.ts';
import { recordActivity, type UserRecord } from './users-repository.ts';

/**
 * Starts two-factor set-up: a new secret (kept encrypted until enabled) as a QR code and an otpauth URL. As Barong
 * (Vault's TOTP `barcode`), the QR code is the bare base64 of a PNG: clients (BaseApp, ours) add the
 * `data:image/png;base64,` prefix themselves.
 */
export async function generateOtpQr(deps: IdentityDeps, user: UserRecord) {
  if (user.otp) throw new AppError(400, [ERRORS.otpAlreadyEnabled]);
  const secret = newTotpSecret();
  await setPendingOtpSecret(deps.db, user.id, encrypt(deps.keys, secret));
  const url = totpUrl(secret, user.email);
  const png = await QRCode.toBuffer(url, { type: 'png', margin: 1, width: 240 });
  return { data: { barcode: png.toString('base64'), url } };
}

/**
 * Turns two-factor on when the code matches the secret from the QR code; the code's step is used up. Refused as
 * Barong refuses it: 400 `resource.otp.already_enabled`, 422 `resource.otp.invalid`.
 */
export async function enableOtp(deps: IdentityDeps, user: UserRecord, code: string, origin: RequestOrigin) {
  if (user.otp) throw new AppError(400, [ERRORS.otpAlreadyEnabled]);
  if (!user.otp_pending_secret_enc) throw invalid(ERRORS.otpNotGenerated);
  const secret = decrypt(deps.keys, user.otp_pending_secret_enc);
  const step = matchTotpStep(secret, code, deps.clock.now());
  const enabled = step !== null && (await enableOtpWithStep(deps.db, user.id, step));
  if (!enabled) {
    await recordActivity(deps.db, {
      userId: user.id,
      action: 'otp.enable',
      result: 'failed',
      topic: 'otp',
      ...origin,
    });
    throw invalid(ERRORS.otpInvalid);
  }
  await endPasswordResets(deps.db, user.id);
  await recordActivity(deps.db, {
    userId: user.id,
    action: 'otp.enable',
    result: 'succeed',
    topic: 'otp',
    // On the app's clock: the withdrawal hold after a 2FA change is measured from this entry on it.
    at: dateOf(deps.clock),
    ...origin,
  });
  await mailSecurityNotice(
    deps,
    user.email,
    'Two-factor authentication was turned on',
    user.anti_phishing_phrase,
  );
}

/** Checks a TOTP code of a user with two-factor on (each code once); throws the resource.otp.* refusals. */
export async function requireTotp(
  deps: IdentityDeps,
  user: UserRecord,
  code: string | undefined,
): Promise<void> {
  if (!user.otp || !user.otp_secret_enc) throw new AppError(403, [ERRORS.otpNotEnabled]);
  if (!code) throw invalid(ERRORS.totpRequired);
  const check = await consumeTotp(deps, user.id, decrypt(deps.keys, user.otp_secret_enc), code);
  if (check !== 'ok') throw invalid(check === 'used' ? ERRORS.totpUsed : ERRORS.totpInvalid);
}

/**
 * Barong's `POST /resource/otp/verify`: checks a code of an account with two-factor on and changes nothing (the
 * code's step is used up, as every accepted code). 400 `resource.otp.not_enabled` without two-factor; 422
 * `resource.otp.invalid` for a wrong code, `resource.otp.code_used` for one already used.
 */
export async function verifyOtp(deps: IdentityDeps, user: UserRecord, code: string): Promise<void> {
  if (!user.otp || !user.otp_secret_enc) throw new AppError(400, [ERRORS.otpNotEnabled]);
  const check = await consumeTotp(deps, user.id, decrypt(deps.keys, user.otp_secret_enc), code);
  if (check !== 'ok') throw invalid(check === 'used' ? ERRORS.totpUsed : ERRORS.otpInvalid);
}

/**
 * Turns two-factor off with a valid code; API keys stop working until it is on again. Refused as Barong refuses
 * it: 400 `resource.otp.not_enabled`, 422 `resource.otp.invalid` (`resource.otp.code_used` for a code already used).
 */
export async function disableOtp(deps: IdentityDeps, user: UserRecord, code: string, origin: RequestOrigin) {
  try {
    await verifyOtp(deps, user, code);
  } catch (err) {
    await recordActivity(deps.db, {
      userId: user.id,
      action: 'otp.disable',
      result: 'failed',
      topic: 'otp',
      ...origin,
    });
    throw err;
  }
  await clearOtp(deps.db, user.id);
  await endPasswordResets(deps.db, user.id);
  await recordActivity(deps.db, {
    userId: user.id,
    action: 'otp.disable',
    result: 'succeed',
    topic: 'otp',
    // On the app's clock: the withdrawal hold after a 2FA change is measured from this entry on it.
    at: dateOf(deps.clock),
    ...origin,
  });
  await mailSecurityNotice(
    deps,
    user.email,
    'Two-factor authentication was turned off',
    user.anti_phishing_phrase,
  );
}
