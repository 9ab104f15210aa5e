/** Stars the middle digits of a phone number, keeping the first two and last two: 91******10. */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  if (digits.length <= 4) return digits;
  return `${digits.slice(0, 2)}${'*'.repeat(digits.length - 4)}${digits.slice(-2)}`;
}

/** Stars part of an email's local part, keeping its first two characters: jo****@example.com. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return email;
  const local = email.slice(0, at);
  const keep = local.length > 2 ? 2 : 1;
  return `${local.slice(0, keep)}${'*'.repeat(Math.max(local.length - keep, 3))}${email.slice(at)}`;
}
