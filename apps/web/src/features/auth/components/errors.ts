import { ERRORS } from '@exchange/shared';
import type { TFunction } from 'i18next';
import { ApiError } from '../../../api/client.ts';

/** Codes that are never shown: the login's second step is asked for instead. */
const SILENT: readonly string[] = [ERRORS.missingOtp];

/** The codes of a failed call (a non-API failure counts as a server error). */
export function errorCodes(err: unknown): string[] {
  if (err instanceof ApiError) return err.errors;
  return ['server.error'];
}

/**
 * The message for a code, preferring the form's own wording: `scope/code` (e.g. 'reset/password.mismatch')
 * wins over the generic code; unknown codes become the generic server error.
 */
export function codeText(t: TFunction, code: string, scope?: string, params: Record<string, unknown> = {}) {
  const keys = scope ? [`${scope}/${code}`, code] : [code];
  return t([...keys, 'server.error'], params);
}

/**
 * The message for a failed call (docs/accounts.md#errors): silent codes give '', a block gives
 * "Your account has been blocked." plus the second message, `left` fills the attempts-left message.
 */
export function errorText(t: TFunction, err: unknown, scope?: string): string {
  const codes = errorCodes(err).filter((c) => !SILENT.includes(c));
  const details = err instanceof ApiError ? err.details : {};
  const [first, second] = codes;
  if (!first) return '';
  if (first === ERRORS.accountBlocked && second) return `${t(first)} ${codeText(t, second, scope)}`;
  return codeText(t, first, scope, details);
}

/** True for the resend-limit refusals, which disable the Get OTP link for 5 s (docs/accounts.md#states). */
export function isResendLimit(err: unknown): boolean {
  return errorCodes(err).some((c) => c === ERRORS.phoneResendLimit || c === ERRORS.emailResendLimit);
}
