import { z } from 'zod';
import { ERRORS } from './errors.ts';

/**
 * Collects the distinct error codes of a failed zod parse, in field order.
 * Schemas in this package use error codes as their issue messages; anything else becomes `server.invalid_params`.
 */
export function errorCodes(error: z.ZodError): string[] {
  const codes = new Set<string>();
  for (const issue of error.issues) {
    codes.add(/^[a-z_]+(\.[a-z0-9_]+)+$/.test(issue.message) ? issue.message : ERRORS.invalidParams);
  }
  return [...codes];
}

/** First error code per field, for showing one message under each form input. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.');
    if (!(key in out)) out[key] = issue.message;
  }
  return out;
}

/** One rule of a text field: a predicate and the error code used when it fails. */
export type TextRule = readonly [check: (value: string) => boolean, code: string];

/**
 * A string field that reports only its first failing rule, so each input shows one message.
 * A missing or non-string value reports `missingCode`.
 */
export function textField(missingCode: string, rules: readonly TextRule[]) {
  return z.string({ error: missingCode }).superRefine((value, ctx) => {
    for (const [check, code] of rules) {
      if (!check(value)) {
        ctx.addIssue({ code: 'custom', message: code });
        return;
      }
    }
  });
}

/** Rule: the value has at least one non-whitespace character. */
export const notBlank = (value: string): boolean => value.trim().length > 0;
/** Rule factory: the value has at most `max` characters. */
export const maxLength =
  (max: number) =>
  (value: string): boolean =>
    value.length <= max;

/**
 * A JSON text read as its value, for `z.preprocess` of a query field that Peatio's clients send as JSON text
 * (anything else, or text that is not JSON, is passed on unchanged for the schema to judge).
 */
export function jsonText(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
