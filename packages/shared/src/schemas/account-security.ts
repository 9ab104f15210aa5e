import { z } from 'zod';
import { ERRORS } from '../errors.ts';
import { mobileFromInternational } from '../phone.ts';
import { textField } from '../validation.ts';
import { passwordField } from './identity.ts';
import { allowedIpsField, ipEntryField } from './ip-whitelist.ts';

/** A required 6-digit TOTP code. */
export const totpField = textField(ERRORS.totpRequired, [
  [(v) => v.length > 0, ERRORS.totpRequired],
  [(v) => /^\d{6}$/.test(v), ERRORS.totpInvalid],
]);

const confirmed = <T extends { confirm_password: string }>(
  key: keyof T & string,
  code: string = ERRORS.passwordMismatch,
) =>
  ((value: T, ctx: z.RefinementCtx) => {
    if (value.confirm_password !== value[key]) {
      ctx.addIssue({ code: 'custom', path: ['confirm_password'], message: code });
    }
  }) as (value: T, ctx: z.RefinementCtx) => void;

/** `POST /identity/users/password/generate_code`: ask for a reset link by email. */
export const forgotPasswordSchema = z.object({
  email: textField(ERRORS.inquiryEmailRequired, [
    [(v) => v.length > 0, ERRORS.inquiryEmailRequired],
    [(v) => /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(v) && v.length <= 254, ERRORS.inquiryEmailInvalid],
  ]),
  captcha_response: z.string().max(10_000).optional(),
});

/** `POST /identity/users/password/confirm_code`: set a new password with the token from the link. */
export const resetPasswordSchema = z
  .object({
    reset_password_token: z
      .string({ error: ERRORS.invalidResetToken })
      .min(10, ERRORS.invalidResetToken)
      .max(200),
    password: passwordField,
    confirm_password: z.string({ error: ERRORS.passwordRequired }),
    lang: z.string().max(5).optional(),
  })
  .superRefine(confirmed('password'));

/** `PUT /resource/users/password`: change the password while signed in; ends every session. */
export const changePasswordSchema = z
  .object({
    old_password: textField(ERRORS.passwordRequired, [[(v) => v.length > 0, ERRORS.passwordRequired]]),
    new_password: passwordField,
    confirm_password: z.string({ error: ERRORS.passwordRequired }),
  })
  .superRefine(confirmed('new_password', ERRORS.passwordChangeMismatch));

/**
 * `POST /resource/otp/enable`, `/disable` and `/verify`: a 6-digit code; a malformed one is refused as a wrong one,
 * with Barong's `resource.otp.invalid`.
 */
export const otpCodeSchema = z.object({
  code: textField(ERRORS.totpRequired, [
    [(v) => v.length > 0, ERRORS.totpRequired],
    [(v) => /^\d{6}$/.test(v), ERRORS.otpInvalid],
  ]),
});

/** The authenticator code of an API key change, refused with Barong's `resource.api_key.*` codes. */
const apiKeyTotpField = textField(ERRORS.apiKeyMissingTotp, [
  [(v) => v.length > 0, ERRORS.apiKeyMissingTotp],
  [(v) => /^\d{6}$/.test(v), ERRORS.apiKeyInvalidTotp],
]);

/** `POST /resource/api_keys`. */
export const createApiKeySchema = z.object({
  algorithm: z.literal('HS256', { error: ERRORS.apiKeyInvalidAlgorithm }).default('HS256'),
  totp_code: apiKeyTotpField,
  /** The addresses and CIDR ranges the key may be used from; none (the default): any address. */
  allowed_ips: allowedIpsField.default([]),
});

/** `GET /resource/api_keys`: Barong's paging and ordering. */
export const apiKeyListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(1000).default(10),
  ordering: z.enum(['asc', 'desc'], { error: ERRORS.apiKeyInvalidOrdering }).default('asc'),
  order_by: z
    .enum(['id', 'kid', 'algorithm', 'state', 'created_at', 'updated_at'], {
      error: ERRORS.apiKeyInvalidAttribute,
    })
    .default('id'),
});

/** `PATCH /resource/api_keys/{kid}`. Barong's `disabled` is taken as `inactive` (the state this app shows). */
export const updateApiKeySchema = z
  .object({
    state: z
      .enum(['active', 'inactive', 'disabled'], { error: ERRORS.apiKeyInvalidState })
      .transform((state) => (state === 'disabled' ? 'inactive' : state))
      .optional(),
    totp_code: apiKeyTotpField,
    algorithm: z.string().optional(),
    kid: z.string().optional(),
    /** Replaces the key's allowed IPs (an empty list: any address). */
    allowed_ips: allowedIpsField.optional(),
  })
  .superRefine((value, ctx) => {
    // Barong's PATCH always names a state; without one, the change must at least set the allowed IPs.
    if (value.state === undefined && value.allowed_ips === undefined)
      ctx.addIssue({ code: 'custom', path: ['state'], message: ERRORS.apiKeyInvalidState });
  });

/** `DELETE /resource/api_keys/{kid}?totp_code=`. */
export const deleteApiKeySchema = z.object({ totp_code: apiKeyTotpField });

const phoneNumber = textField(ERRORS.phoneInvalid, [
  [(v) => /^\d{4,30}$/.test(v.replace(/\D/g, '')), ERRORS.phoneInvalid],
]);

/**
 * The new number of a phone change must be a mobile number (of the chosen country's numbering plan when one is
 * given): the code goes to it by SMS, and it becomes a login (issue 32).
 */
function refuseNonMobile(
  value: { phone_number: string; country?: string | undefined },
  ctx: z.RefinementCtx,
) {
  if (
    /^\d{4,30}$/.test(value.phone_number.replace(/\D/g, '')) &&
    !mobileFromInternational(value.phone_number, value.country)
  )
    ctx.addIssue({ code: 'custom', path: ['phone_number'], message: ERRORS.phoneInvalid });
}

/** `POST /resource/phones`: start a phone change; `otp_code` is required when two-factor is on. */
export const startPhoneChangeSchema = z
  .object({
    phone_number: phoneNumber,
    country: z.string().max(2).optional(),
    otp_code: z.string().max(6).optional(),
  })
  .superRefine(refuseNonMobile);

/** `POST /resource/phones/send_code`: resend the SMS code of a phone change. */
export const resendPhoneCodeSchema = z.object({ phone_number: phoneNumber }).superRefine(refuseNonMobile);

/** `POST /resource/phones/verify`: confirm the new number with its SMS code (and the country chosen for it). */
export const verifyPhoneSchema = z
  .object({
    phone_number: phoneNumber,
    country: z.string().max(2).optional(),
    verification_code: textField(ERRORS.phoneCodeInvalid, [
      [(v) => /^\d{6}$/.test(v), ERRORS.phoneCodeInvalid],
    ]),
  })
  .superRefine(refuseNonMobile);

/** `POST /resource/phones/verify_otp_code`: the two-factor step before a phone change. */
export const verifyOtpCodeSchema = z.object({ otp_code: totpField });

/** True when `dob` (YYYY-MM-DD) is a real date at least 18 years before `today`. */
export function isAdult(dob: string, today = new Date()): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(dob)) return false;
  const date = new Date(`${dob}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== dob) return false;
  const limit = new Date(Date.UTC(today.getUTCFullYear() - 18, today.getUTCMonth(), today.getUTCDate()));
  return date <= limit;
}

const required = (max: number) =>
  textField(ERRORS.fieldRequired, [
    [(v) => v.trim().length > 0, ERRORS.fieldRequired],
    [(v) => v.length <= max, ERRORS.invalidParams],
  ]);

/** `POST`/`PUT /resource/profiles` (docs/accounts.md#validation Profile). */
export const profileSchema = z.object({
  first_name: z.string().max(40).optional(),
  last_name: z.string().max(40).optional(),
  gender: z.enum(['male', 'female', 'other'], { error: ERRORS.fieldRequired }),
  dob: textField(ERRORS.fieldRequired, [
    [(v) => v.length > 0, ERRORS.fieldRequired],
    [(v) => isAdult(v), ERRORS.profileInvalidDob],
  ]),
  address: required(200),
  postcode: textField(ERRORS.fieldRequired, [
    [(v) => v.length > 0, ERRORS.fieldRequired],
    [(v) => /^[A-Za-z0-9]{1,10}$/.test(v), ERRORS.profileInvalidPostcode],
  ]),
  city: required(100),
  country: textField(ERRORS.fieldRequired, [[(v) => /^[A-Z]{2}$/.test(v), ERRORS.fieldRequired]]),
  btnName: z.enum(['saveBtn', 'proceedBtn']).default('saveBtn'),
});
export type ProfileInput = z.infer<typeof profileSchema>;

/**
 * `POST`/`PUT /resource/profiles` with BASEAPP_COMPAT: BaseApp 2.6 sends no gender (and its `confirm` and
 * `metadata`, dropped); everything else as {@link profileSchema}.
 */
export const compatProfileSchema = profileSchema.extend({
  gender: z.enum(['male', 'female', 'other'], { error: ERRORS.fieldRequired }).optional(),
});
export type CompatProfileInput = z.infer<typeof compatProfileSchema>;

/** `POST /resource/ip_whitelist`: add an entry to the login whitelist, with an authenticator code. */
export const addIpWhitelistSchema = z.object({ ip: ipEntryField, totp_code: totpField });

/** `DELETE /resource/ip_whitelist/{id}?totp_code=`: remove an entry, with an authenticator code. */
export const removeIpWhitelistSchema = z.object({ totp_code: totpField });
