import { hashCode, type ServerKeys, safeEqual } from './crypto.ts';

/** How long a registration token lasts. */
export const REGISTRATION_TOKEN_MINUTES = 60;

const mac = (keys: ServerKeys, userId: string, expires: string) =>
  hashCode(keys, `registration-token:${userId}`, expires);

/**
 * A registration token for a pending account: `<expiry in Unix seconds>.<keyed hash of the account and expiry>`.
 * Handed only to whoever registered the account or logged in to it with its password, it proves that a later
 * request (a change of the phone number) comes from them. Nothing is stored: it is checked by recomputing the
 * hash, and it ends with its expiry or with the account (a new registration of the email is another account).
 */
export function registrationToken(keys: ServerKeys, userId: string, now: number): string {
  const expires = String(Math.floor(now / 1000) + REGISTRATION_TOKEN_MINUTES * 60);
  return `${expires}.${mac(keys, userId, expires)}`;
}

/** True for an unexpired token issued by {@link registrationToken} for this account. */
export function registrationTokenValid(
  keys: ServerKeys,
  userId: string,
  token: string,
  now: number,
): boolean {
  const [expires = '', hash = ''] = token.split('.');
  if (!(Number(expires) * 1000 > now)) return false;
  return safeEqual(hash, mac(keys, userId, expires));
}
