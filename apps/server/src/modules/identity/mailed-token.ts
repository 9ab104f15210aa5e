import { hashCode, type ServerKeys, safeEqual } from './crypto.ts';

/** What a mailed link does (BASEAPP_COMPAT): confirm a registration, or remove a saved withdrawal address. */
export type MailedTokenPurpose = 'email_confirm' | 'beneficiary_removal';

/** How long each kind of link lasts. */
export const MAILED_TOKEN_MINUTES: Record<MailedTokenPurpose, number> = {
  // Barong's confirmation link is a JWT of a day; mail can take that long to be read.
  email_confirm: 24 * 60,
  beneficiary_removal: 60,
};

const mac = (keys: ServerKeys, purpose: MailedTokenPurpose, subject: string, expires: string) =>
  hashCode(keys, `mailed-token:${purpose}:${subject}`, expires);

/**
 * The token of a mailed link: `<subject id>.<expiry in Unix seconds>.<keyed hash>` (the subject is the account
 * for a confirmation, the beneficiary for a removal). Nothing is stored: the hash is recomputed with the server
 * key, so only mail this server sent carries a valid one. What it does can happen once (an account is confirmed
 * once, an address removed once), so a token needs no record of its use.
 */
export function mailedToken(
  keys: ServerKeys,
  purpose: MailedTokenPurpose,
  subject: string,
  now: number,
): string {
  const expires = String(Math.floor(now / 1000) + MAILED_TOKEN_MINUTES[purpose] * 60);
  return `${subject}.${expires}.${mac(keys, purpose, subject, expires)}`;
}

/** The subject id of an unexpired token this server issued for `purpose`, or undefined. */
export function mailedTokenSubject(
  keys: ServerKeys,
  purpose: MailedTokenPurpose,
  token: string,
  now: number,
): string | undefined {
  const [subject = '', expires = '', hash = ''] = token.split('.');
  if (!/^\d+$/.test(subject) || !(Number(expires) * 1000 > now)) return undefined;
  return safeEqual(hash, mac(keys, purpose, subject, expires)) ? subject : undefined;
}
