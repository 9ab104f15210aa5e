import { Secret, TOTP } from 'otpauth';
import type pg from 'pg';
import type { Clock } from '../../clock.ts';
import { useTotpStep } from './otp-repository.ts';

/** RFC 6238: 30-second steps, 6 digits, SHA-1, one step of drift either side. */
const PERIOD = 30;
const WINDOW = 1;

/** A new random 160-bit TOTP secret, base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URL an authenticator app scans. */
export function totpUrl(secret: string, account: string, issuer = 'Exchange'): string {
  return new TOTP({
    issuer,
    label: account,
    secret: Secret.fromBase32(secret),
    period: PERIOD,
    digits: 6,
  }).toString();
}

/**
 * The time step a valid code belongs to, or null when the code is wrong for `nowMs` ± one step. `nowMs` is the
 * app's clock (clock.ts): a test that moves it moves the step an authenticator must show.
 */
export function matchTotpStep(secret: string, code: string, nowMs: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const totp = new TOTP({ secret: Secret.fromBase32(secret), period: PERIOD, digits: 6 });
  const delta = totp.validate({ token: code, window: WINDOW, timestamp: nowMs });
  return delta === null ? null : Math.floor(nowMs / 1000 / PERIOD) + delta;
}

/** A code's check: accepted, wrong, or right but its step already used (a replay: wait for the next code). */
export type TotpCheck = 'ok' | 'invalid' | 'used';

/**
 * Accepts a code at most once: the step must be newer than the last one used, recorded atomically, so a
 * replayed code (same step, or an older one) is refused even by two concurrent requests, as `used`.
 */
export async function consumeTotp(
  { db, clock }: { db: pg.Pool; clock: Clock },
  userId: string,
  secret: string,
  code: string,
): Promise<TotpCheck> {
  const step = matchTotpStep(secret, code, clock.now());
  if (step === null) return 'invalid';
  return (await useTotpStep(db, userId, step)) ? 'ok' : 'used';
}
