import type { Page } from 'playwright-core';
import { latestCode, PASSWORD } from './accounts.ts';
import { solveCaptcha } from './captcha.ts';
import { advanceServerClock } from './clock.ts';

/** Fills the login screen's first step (identifier, password, captcha) and submits it. */
export async function submitCredentials(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email or phone number').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await solveCaptcha(page);
  await page.locator('form').getByRole('button', { name: 'Login' }).click();
}

/** Logs in through the screen with email, password and the emailed 5-digit code; lands on /settings. */
export async function loginWithEmailCode(page: Page, email: string): Promise<void> {
  await submitCredentials(page, email);
  // The second step solves a fresh captcha in the background for each call (each answer is accepted once).
  // Past the per-minute limit of the context's address, the minute passes on the server's clock (not waited out).
  const sent = page.getByText('OTP code sent successfully on your email');
  const limited = page.getByText('Too many requests. Please wait a moment and try again.');
  for (let tries = 0; ; tries++) {
    await page.getByTestId('login-get-otp').click();
    await sent.or(limited).first().waitFor();
    if (await sent.isVisible()) break;
    if (tries >= 1) throw new Error('the login code was refused twice by the rate limit');
    await advanceServerClock(61_000);
  }
  await page.getByTestId('login-code').fill(await latestCode(email));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL((url) => url.pathname === '/settings');
}
