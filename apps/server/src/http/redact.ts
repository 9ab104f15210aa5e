/** A URL for the log without card numbers: `card_number` values and any run of 12-19 digits are redacted. */
export function redactCardNumbers(url: string): string {
  return url
    .replace(/(card_number=)[^&]*/gi, '$1[redacted]')
    .replace(/(?<!\d)\d{12,19}(?!\d)/g, (digits) => `****${digits.slice(-4)}`);
}

/**
 * A URL fit for the log: card numbers as {@link redactCardNumbers} leaves them, and without the password-reset
 * token of a reset link (`/password-reset/<token>`, `verify_access_token?access_token=`), which would let a
 * reader of the log set the password while the link is valid.
 */
export function redactSecrets(url: string): string {
  return redactCardNumbers(url)
    .replace(/(\/password-reset\/)[^/?#]+/gi, '$1[redacted]')
    .replace(/([?&]access_token=)[^&#]*/gi, '$1[redacted]');
}
