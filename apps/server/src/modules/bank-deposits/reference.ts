import { randomInt } from 'node:crypto';

/**
 * ISO 11649 creditor references ("RF references"): `RF`, two check digits, and up to 21 letters or digits. The
 * check digits make the reference's mod-97 value (letters as 10..35, `RF` and the digits moved to the end) 1, as
 * IBANs are checked, so a mistyped reference is caught instead of crediting the wrong customer.
 *
 * Ours are `RF` + check + `EX` + 10 characters (16 in all): the `EX` prefix and the fixed length let a reference
 * be found inside free remittance text too.
 */

/** Letters and digits without the ones people confuse (0/O, 1/I/L). */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const BODY_PREFIX = 'EX';
const BODY_RANDOM = 10;

/** The mod-97 remainder of a string of letters and digits, letters counting as 10..35. */
function mod97(text: string): number {
  let remainder = 0;
  for (const ch of text) {
    const value = ch >= 'A' && ch <= 'Z' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder;
}

/** The reference with these letters and digits as its body: `RF` + check digits + body. */
export function rfReference(body: string): string {
  const check = 98 - mod97(`${body}RF00`);
  return `RF${String(check).padStart(2, '0')}${body}`;
}

/** The reference without spaces, upper case. */
export const compactReference = (text: string) => text.replace(/\s+/g, '').toUpperCase();

/** True when `text` (spaces allowed) is a well-formed RF reference whose check digits hold. */
export function validRfReference(text: string): boolean {
  const ref = compactReference(text);
  if (!/^RF\d{2}[A-Z0-9]{1,21}$/.test(ref)) return false;
  return mod97(ref.slice(4) + ref.slice(0, 4)) === 1;
}

/** A new random reference of ours. */
export function newReference(): string {
  let body = BODY_PREFIX;
  for (let i = 0; i < BODY_RANDOM; i++) body += ALPHABET[randomInt(ALPHABET.length)];
  return rfReference(body);
}

/** `RF18 EXAB 12CD 34EF`: in groups of four, as printed for people to type. */
export const displayReference = (ref: string) => compactReference(ref).replace(/(.{4})(?=.)/g, '$1 ');

/**
 * The reference a transfer carries: its structured creditor reference when it has one, else the first of ours
 * found in its remittance text (spaces ignored; only one whose check digits hold). `null`: none at all; `invalid`:
 * a structured reference that is not a valid RF reference.
 */
export function referenceOf(
  creditorReference: string | null,
  remittance: string | null,
): { reference: string } | 'invalid' | null {
  if (creditorReference?.trim()) {
    const ref = compactReference(creditorReference);
    return validRfReference(ref) ? { reference: ref } : 'invalid';
  }
  if (!remittance) return null;
  const text = compactReference(remittance);
  const pattern = new RegExp(`RF\\d{2}${BODY_PREFIX}[A-Z0-9]{${BODY_RANDOM}}`, 'g');
  let looked = false;
  for (const match of text.matchAll(pattern)) {
    looked = true;
    if (validRfReference(match[0])) return { reference: match[0] };
  }
  return looked ? 'invalid' : null;
}
