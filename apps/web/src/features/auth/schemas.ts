import {
  CODE_LENGTH,
  codeField,
  ERRORS,
  loginSchema,
  mobileFromNational,
  registerSchema,
  resetPasswordSchema,
  verifyAccountSchema,
} from '@exchange/shared';
import { z } from 'zod';

/** Client-only validation codes of the identity screens (docs/accounts.md#validation); the catalogue maps each one. */
export const CLIENT_CODES = {
  loginMissingIdentifier: 'identity.login.missing_identifier',
  loginInvalidEmail: 'identity.login.invalid_email',
  loginEmailTooLong: 'identity.login.email_too_long',
  loginInvalidNumber: 'identity.login.invalid_number',
  loginNumberTooLong: 'identity.login.number_too_long',
  loginMissingCountryCode: 'identity.login.missing_country_code',
  loginPasswordTooLong: 'identity.login.password_too_long',
  loginMissingTotp: 'identity.login.missing_totp',
  loginMissingCode: 'identity.login.missing_code',
  registerMissingConfirm: 'identity.register.missing_confirm',
  registerTermsRequired: 'identity.register.terms_required',
  changeNumberMissingCountryCode: 'identity.change_number.missing_country_code',
  changeNumberMissingPhone: 'identity.change_number.missing_phone',
  changeNumberInvalidPhone: 'identity.change_number.invalid_phone',
} as const;

/** Login field limits (docs/accounts.md#constants). */
export const LOGIN_LIMITS = { identifierMax: 40, phoneMax: 12, passwordMax: 40 } as const;

const LOGIN_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
const issue = (ctx: z.RefinementCtx, path: string, message: string) =>
  ctx.addIssue({ code: 'custom', path: [path], message });

/** Phone mode: the identifier starts with a digit and has no @ (docs/accounts.md#screens). */
export const isPhoneIdentifier = (identifier: string): boolean =>
  /^\d/.test(identifier) && !identifier.includes('@');

/**
 * The identifier field as typed (docs/accounts.md#validation, #constants): in phone mode a number of digits only is cut to 12
 * (the login phone's length); anything else, an email or a number with other characters, is left to the
 * field's 40 and to the checks on submit. An email whose name is digits still gets its @ after the 12th digit.
 */
export function loginIdentifierInput(typed: string): string {
  return isPhoneIdentifier(typed) && /^\d+$/.test(typed) ? typed.slice(0, LOGIN_LIMITS.phoneMax) : typed;
}

/**
 * The login form: the shared login schema plus the screen's single identifier field and dial code, with the
 * spec's per-mode rules (email: valid, max 40; phone: numeric, max 12, a country code; password max 40).
 */
export const loginFormSchema = loginSchema
  .safeExtend({ identifier: z.string(), country_code: z.string().nullable() })
  .superRefine((value, ctx) => {
    const id = value.identifier.trim();
    if (!id) issue(ctx, 'identifier', CLIENT_CODES.loginMissingIdentifier);
    else if (value.session_type === 'phone') {
      if (!/^\d+$/.test(id)) issue(ctx, 'identifier', CLIENT_CODES.loginInvalidNumber);
      else if (id.length > LOGIN_LIMITS.phoneMax) issue(ctx, 'identifier', CLIENT_CODES.loginNumberTooLong);
      if (!value.country_code) issue(ctx, 'country_code', CLIENT_CODES.loginMissingCountryCode);
    } else if (!LOGIN_EMAIL.test(id)) issue(ctx, 'identifier', CLIENT_CODES.loginInvalidEmail);
    else if (id.length > LOGIN_LIMITS.identifierMax) issue(ctx, 'identifier', CLIENT_CODES.loginEmailTooLong);
    if (value.password.length > LOGIN_LIMITS.passwordMax)
      issue(ctx, 'password', CLIENT_CODES.loginPasswordTooLong);
  });

/** Login second step, two-factor code: required, 6 digits ("2FA Code Required" / "Invalid 2FA Code"). */
export const loginTotpSchema = z.object({ code: codeField(CODE_LENGTH.totp, CLIENT_CODES.loginMissingTotp) });

/**
 * Login second step, emailed or SMS code: required, 5 digits ("OTP code Required" / "Invalid OTP code"); `length`
 * is the server's `code_length` (6 when it serves BaseApp's flows).
 */
export const loginCodeSchema = (length: number = CODE_LENGTH.login) =>
  z.object({ code: codeField(length, CLIENT_CODES.loginMissingCode) });

/** The register form: the shared registration body plus the confirmation and the terms flag. */
export const registerFormSchema = registerSchema
  .safeExtend({ confirm_password: z.string(), terms: z.boolean() })
  .superRefine((value, ctx) => {
    if (!value.confirm_password) issue(ctx, 'confirm_password', CLIENT_CODES.registerMissingConfirm);
    else if (value.confirm_password !== value.password)
      issue(ctx, 'confirm_password', ERRORS.passwordMismatch);
    if (!value.terms) issue(ctx, 'terms', CLIENT_CODES.registerTermsRequired);
  });

/** Verify account: the shared body; codes are digits only, 6 of them. */
export const verifyFormSchema = verifyAccountSchema;

/** Reset password form: the shared body; the confirmation must equal the password. */
export const resetFormSchema = resetPasswordSchema;

/**
 * Change-number modal (verify account): dial code and number, max 15 digits, a mobile number of the country
 * chosen (the shared rule the server's `changePendingPhoneSchema` applies, issue 32).
 */
export const changeNumberSchema = z
  .object({
    country: z
      .string({ error: CLIENT_CODES.changeNumberMissingCountryCode })
      .min(1, CLIENT_CODES.changeNumberMissingCountryCode),
    phone_number: z.string().superRefine((v, ctx) => {
      if (!v) ctx.addIssue({ code: 'custom', message: CLIENT_CODES.changeNumberMissingPhone });
      else if (!/^\d{1,15}$/.test(v))
        ctx.addIssue({ code: 'custom', message: CLIENT_CODES.changeNumberInvalidPhone });
    }),
  })
  .superRefine((value, ctx) => {
    if (
      value.country &&
      /^\d{1,15}$/.test(value.phone_number) &&
      !mobileFromNational(value.phone_number, value.country)
    )
      issue(ctx, 'phone_number', CLIENT_CODES.changeNumberInvalidPhone);
  });

/** Digits only, at most `max` of them: the filter for code and phone inputs. */
export const digitsOnly = (value: string, max: number): string => value.replace(/\D/g, '').slice(0, max);
