import type pg from 'pg';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { postFromPage } from './accounts.ts';
import { totpCodes } from './totp.ts';

/**
 * Ends the 24-hour hold that enabling 2FA started, which a test cannot wait out: the hold runs from the latest
 * successful 2FA change (an `otp` activity) and the last password change, so both move a day back.
 */
export async function liftWithdrawHold(db: pg.Pool, email: string): Promise<void> {
  await db.query(
    `update activities set created_at = created_at - interval '25 hours'
      where topic = 'otp' and user_id = (select id from users where email = $1)`,
    [email],
  );
  await db.query(
    `update users set password_changed_at = password_changed_at - interval '25 hours' where email = $1`,
    [email],
  );
}

/** Turns two-factor on for the user signed in on `page` through the API; returns their next codes. */
export async function enableTwoFactorFromPage(page: Page): Promise<() => Promise<string>> {
  const qr = await postFromPage(page, '/api/v2/barong/resource/otp/generate_qrcode', {});
  const secret = new URL((qr.body as { data: { url: string } }).data.url).searchParams.get('secret') ?? '';
  const nextCode = totpCodes(secret);
  const enabled = await postFromPage(page, '/api/v2/barong/resource/otp/enable', { code: await nextCode() });
  expect(enabled.status).toBe(201);
  return nextCode;
}
