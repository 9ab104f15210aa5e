import { z } from 'zod';
import { ERRORS } from '../errors.ts';
import { mobileFromInternational, mobileFromNational } from '../phone.ts';
import { maxLength, textField } from '../validation.ts';
import { accountTypeField } from './company.ts';

/** Special characters a password must include at least one of (docs/accounts.md#validation). */
export const PASSWORD_SPECIALS = '#?!@$%^&*-';
const PASSWORD_PATTERN = /^(?=.*[a-z])(?=.*[A-Z])(?=.*[#?!@$%^&*-]).{8,64}$/;
/** Registration email: letters, digits, + . _ - then @, a domain of 5+ alphanumerics, a dot and 2-4 letters. */
export const REGISTRATION_EMAIL = /^[A-Za-z0-9+._-]+@[A-Za-z0-9]{5,}\.[A-Za-z]{2,4}$/;
/** A name: letters (any script), spaces and hyphens, starting with a letter. */
const NAME_PATTERN = /^\p{L}[\p{L} -]*$/u;

/** Countries offered at registration (docs/accounts.md#screens) with their dial codes. */
export const REGISTRATION_COUNTRIES = [
  { code: 'IN', iso3: 'IND', name: 'India', dial: '91' },
  { code: 'KR', iso3: 'KOR', name: 'Republic of Korea', dial: '82' },
  { code: 'JP', iso3: 'JPN', name: 'Japan', dial: '81' },
] as const;

/**
 * Length of the one-time codes: 6 digits for verification, 5 for the login second step (`compatLogin`: 6, the
 * emailed login code with BASEAPP_COMPAT on, which BaseApp's two-factor box takes).
 */
export const CODE_LENGTH = { verification: 6, login: 5, compatLogin: 6, totp: 6 } as const;

/** A password meeting the policy: 8-64 characters, upper and lower case, one of #?!@$%^&*-. */
export const passwordField = textField(ERRORS.passwordRequired, [
  [(v) => v.length > 0, ERRORS.passwordRequired],
  [(v) => PASSWORD_PATTERN.test(v), ERRORS.passwordPattern],
]);

const nameField = textField(ERRORS.fieldRequired, [
  [(v) => v.trim().length > 0, ERRORS.fieldRequired],
  [(v) => v.trim().length >= 3 && v.trim().length <= 40 && NAME_PATTERN.test(v.trim()), ERRORS.invalidName],
]);

/** Digits only, exactly `length` of them. */
export const codeField = (length: number, missing: string = ERRORS.invalidCodeFormat) =>
  textField(missing, [
    [(v) => v.length > 0, missing],
    [(v) => new RegExp(`^\\d{${length}}$`).test(v), ERRORS.invalidCodeFormat],
  ]);

/** Strips leading zeros of a national number and prefixes the dial code: "91" + "098765" -> "9198765". */
export function fullPhoneNumber(dialCode: string, number: string): string {
  return `${dialCode.replace(/\D/g, '')}${number.replace(/\D/g, '').replace(/^0+/, '')}`;
}

/** `POST /identity/users`: the registration request body. */
export const registerSchema = z
  .object({
    first_name: nameField,
    middle_name: z.string().max(40, ERRORS.invalidName).optional().default(''),
    last_name: nameField,
    email: textField(ERRORS.fieldRequired, [
      [(v) => v.length > 0, ERRORS.fieldRequired],
      [(v) => REGISTRATION_EMAIL.test(v) && v.length <= 40, ERRORS.invalidEmail],
    ]),
    country: textField(ERRORS.fieldRequired, [[(v) => v.length > 0, ERRORS.fieldRequired]]),
    country_code: z.string({ error: ERRORS.invalidCountry }),
    phone_number: textField(ERRORS.fieldRequired, [
      [(v) => v.length > 0, ERRORS.fieldRequired],
      [(v) => /^\d{1,14}$/.test(v), ERRORS.invalidPhone],
    ]),
    password: passwordField,
    captcha_response: z.string().max(10_000).optional(),
    /** Personal (the default, so Barong clients that send none are unaffected) or Business (issue 31). */
    account_type: accountTypeField,
  })
  .superRefine((value, ctx) => {
    const country = REGISTRATION_COUNTRIES.find((c) => c.code === value.country);
    const countryOk = country !== undefined && country.dial === value.country_code.replace(/\D/g, '');
    if (value.country && !countryOk) {
      ctx.addIssue({ code: 'custom', path: ['country'], message: ERRORS.invalidCountry });
    }
    // A number that cannot be a mobile of the chosen country is no number to send codes to (issue 32).
    if (
      country &&
      countryOk &&
      /^\d{1,14}$/.test(value.phone_number) &&
      !mobileFromNational(value.phone_number, country.code)
    )
      ctx.addIssue({ code: 'custom', path: ['phone_number'], message: ERRORS.invalidPhone });
  });
export type RegisterInput = z.infer<typeof registerSchema>;

/**
 * `POST /identity/users` as BaseApp 2.6 and Barong clients send it (BASEAPP_COMPAT only): email and password; the
 * names, country and phone are asked before level 2. `refid` and `data` are Barong's and accepted, not used.
 */
export const compatRegisterSchema = z.object({
  email: textField(ERRORS.fieldRequired, [
    [(v) => v.length > 0, ERRORS.fieldRequired],
    [(v) => REGISTRATION_EMAIL.test(v) && v.length <= 40, ERRORS.invalidEmail],
  ]),
  password: passwordField,
  captcha_response: z.string().max(10_000).optional(),
  refid: z.string().max(40).optional(),
  data: z.string().max(1024).optional(),
});
export type CompatRegisterInput = z.infer<typeof compatRegisterSchema>;

/**
 * The token of a mailed link (BASEAPP_COMPAT: account confirmation, beneficiary removal):
 * `<subject id>.<expiry in Unix seconds>.<keyed hash>`, refused with `code` when malformed.
 */
export const mailedTokenField = (code: string) =>
  z.string({ error: code }).regex(/^\d{1,18}\.\d{1,12}\.[0-9a-f]{64}$/, code);

/** `POST /identity/users/email/confirm_code` as the spec has it: the 6-digit emailed code (level 1). */
export const confirmEmailCodeSchema = z.object({
  email: z.string({ error: ERRORS.fieldRequired }).min(3, ERRORS.fieldRequired).max(254),
  code: z.string({ error: ERRORS.missingEmailCode }).regex(/^\d{6}$/, ERRORS.invalidCodeFormat),
});

/** `POST /identity/users/email/confirm_code` as Barong has it (BASEAPP_COMPAT): the mailed link's token. */
export const confirmEmailTokenSchema = z.object({
  token: mailedTokenField(ERRORS.invalidConfirmationToken),
});

/** `POST /identity/users/verify_account`. */
export const verifyAccountSchema = z.object({
  email: z.string({ error: ERRORS.fieldRequired }).min(1, ERRORS.fieldRequired).max(254),
  phone_number: z.string().max(20).optional(),
  email_otp: codeField(CODE_LENGTH.verification, ERRORS.missingEmailCode),
  phone_otp: codeField(CODE_LENGTH.verification, ERRORS.missingPhoneCode),
});
export type VerifyAccountInput = z.infer<typeof verifyAccountSchema>;

/** `POST /identity/sessions`: login, first step (password) and second step (otp_code or code). */
export const loginSchema = z
  .object({
    session_type: z.enum(['email', 'phone']).default('email'),
    email: z.string().max(254).optional(),
    phone_number: z.string().max(20).optional(),
    password: textField(ERRORS.passwordRequired, [
      [(v) => v.length > 0, ERRORS.passwordRequired],
      [maxLength(64), ERRORS.loginInvalid],
    ]),
    captcha_response: z.string().max(10_000).optional(),
    otp_code: z.string().max(10).optional(),
    code: z.string().max(10).optional(),
    authentication_state: z.string().max(20).optional(),
  })
  .superRefine((value, ctx) => {
    const id = value.session_type === 'phone' ? value.phone_number : value.email;
    if (!id || id.trim().length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: [value.session_type === 'phone' ? 'phone_number' : 'email'],
        message: ERRORS.fieldRequired,
      });
    }
  });
export type LoginInput = z.infer<typeof loginSchema>;

/** `POST /identity/sessions/resent_otp`: send the login one-time code to email or phone. */
export const resendLoginCodeSchema = z.object({
  session_type: z.enum(['email', 'phone']).default('email'),
  email: z.string().max(254).optional(),
  phone_number: z.string().max(20).optional(),
  password: z.string({ error: ERRORS.passwordRequired }).min(1, ERRORS.passwordRequired).max(64),
  captcha_response: z.string().max(10_000).optional(),
});
export type ResendLoginCodeInput = z.infer<typeof resendLoginCodeSchema>;

/**
 * The proof that a request comes from the browser that registered (or logged in to) a pending account: issued
 * with the registration answer and a pending login's answer, it expires within the hour.
 */
export const registrationTokenField = z
  .string({ error: ERRORS.registrationTokenInvalid })
  .regex(/^\d{1,12}\.[0-9a-f]{64}$/, ERRORS.registrationTokenInvalid);

/**
 * `POST /identity/users/edit/phone_number`: replace the phone of a pending registration (the "Change number"
 * step of verify-account). Barong took these as a GET query with no proof; a POST with the registration token
 * now, so nobody who merely knows an email can redirect its codes.
 */
export const changePendingPhoneSchema = z
  .object({
    email: z.string({ error: ERRORS.fieldRequired }).min(3, ERRORS.fieldRequired).max(254),
    country_code: z.string({ error: ERRORS.invalidCountry }).regex(/^\+?\d{1,4}$/, ERRORS.invalidCountry),
    phone_number: z.string({ error: ERRORS.invalidPhone }).regex(/^\d{1,15}$/, ERRORS.invalidPhone),
    registration_token: registrationTokenField,
    captcha_response: z.string().max(10_000).optional(),
  })
  .superRefine((value, ctx) => {
    if (
      /^\d{1,15}$/.test(value.phone_number) &&
      !mobileFromInternational(fullPhoneNumber(value.country_code, value.phone_number))
    )
      ctx.addIssue({ code: 'custom', path: ['phone_number'], message: ERRORS.invalidPhone });
  });
export type ChangePendingPhoneInput = z.infer<typeof changePendingPhoneSchema>;

/** `POST /identity/users/send_otp/email` and `/phone`: resend a registration verification code. */
export const sendVerificationCodeSchema = z.object({
  email: z.string({ error: ERRORS.fieldRequired }).min(1, ERRORS.fieldRequired).max(254),
  phone_number: z.string().max(20).optional(),
});
