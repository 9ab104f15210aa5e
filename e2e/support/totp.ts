import { Secret, TOTP } from 'otpauth';

/**
 * TOTP codes for one secret. The server accepts the current 30 s step ± 1, each step once and in increasing
 * order, so every call hands out the next unused step that is valid now, waiting only when it must.
 */
export function totpCodes(secret: string) {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), period: 30, digits: 6 });
  const stepNow = () => Math.floor(Date.now() / 30_000);
  let last = 0;
  return async (): Promise<string> => {
    // Stay clear of a step boundary, so the code is still in the window when the server checks it.
    while (Date.now() % 30_000 > 27_000) await new Promise((r) => setTimeout(r, 500));
    while (Math.max(last + 1, stepNow() - 1) > stepNow() + 1) await new Promise((r) => setTimeout(r, 1000));
    last = Math.max(last + 1, stepNow() - 1);
    return totp.generate({ timestamp: last * 30_000 });
  };
}
