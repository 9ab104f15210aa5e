/**
 * A password's strength in bits, by NIST SP 800-63's estimate for chosen passwords (what Barong's
 * `POST /identity/password/validate` reports as `entropy`): 4 bits for the first character, 2 for each of the
 * next 7, 1.5 for each of the next 12, 1 for each one after, and 6 bits more when the password mixes upper-case
 * and non-letter characters. It only scores; the spec's password rule is what registration enforces.
 */
export function passwordEntropy(password: string): number {
  const chars = [...password];
  let bits = 0;
  chars.forEach((_char, index) => {
    if (index === 0) bits += 4;
    else if (index < 8) bits += 2;
    else if (index < 20) bits += 1.5;
    else bits += 1;
  });
  if (/[A-Z]/.test(password) && /[^A-Za-z]/.test(password)) bits += 6;
  return bits;
}

/**
 * The entropy of the weakest password the spec's rule accepts (8 characters, with an upper-case letter and a
 * special character): 4 + 7 × 2 + 6 bits. Barong's `/identity/configs` gives it as `password_min_entropy`, and
 * BaseApp calls a password weaker than that too weak; every password the rule takes reaches it.
 */
export const MIN_PASSWORD_ENTROPY = 24;
