import { Secret, TOTP } from 'otpauth';
import { advanceServerClock, serverNow } from './clock.ts';

const STEP_MS = 30_000;
/** A code used this close to the end of its step may reach the server after it: the clock moves past it first. */
const MARGIN_MS = 3_000;

/**
 * TOTP codes for one secret, as an authenticator in step with the server shows them (the suite's server, or the
 * one at `baseUrl`, started with NODE_ENV=test). The server accepts the current 30 s step ± 1, each step once and
 * in increasing order, so every call hands out the next unused step; when that step is not valid yet, or the
 * current one is about to end, the server's clock moves ahead to where it is valid instead of the test waiting
 * for it (up to 30 s a code).
 */
export function totpCodes(secret: string, baseUrl?: string) {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), period: 30, digits: 6 });
  let last = 0;
  return async (): Promise<string> => {
    let now = await serverNow(baseUrl);
    if (now % STEP_MS > STEP_MS - MARGIN_MS) {
      await advanceServerClock(STEP_MS - (now % STEP_MS) + 100, baseUrl);
      now = await serverNow(baseUrl);
    }
    const step = Math.floor(now / STEP_MS);
    const next = Math.max(last + 1, step - 1);
    // Valid once the server is at most one step behind it.
    if (next > step + 1) await advanceServerClock((next - 1) * STEP_MS - now + 100, baseUrl);
    last = next;
    return totp.generate({ timestamp: next * STEP_MS });
  };
}
