import { type Challenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { Page } from 'playwright-core';
import { suiteApp } from './suite-app.ts';

/**
 * The suite's apps ask for little work (ALTCHA_DIFFICULTY_BITS=4, global-setup.ts); the default's second in a
 * browser may take several on a busy machine.
 */
const SOLVE_TIMEOUT_MS = 45_000;

/**
 * A solved ALTCHA answer for a request sent straight to the API (the `captcha_response` field): the server
 * runs with its default CAPTCHA_TYPE=altcha and accepts each answer once.
 */
export async function captchaResponse(): Promise<string> {
  const response = await fetch(`${suiteApp().baseUrl}/api/v2/barong/identity/captcha/challenge`);
  const challenge = (await response.json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('could not solve the captcha challenge');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/** The form's captcha widget (the page shows at most one). */
export const captchaWidget = (page: Page) => page.locator('altcha-widget');

/** Ticks "I'm not a robot" and waits until the widget has solved its challenge and shows Verified. */
export async function solveCaptcha(page: Page): Promise<void> {
  const widget = captchaWidget(page);
  await widget.getByRole('checkbox', { name: "I'm not a robot" }).click();
  await widget.getByText('Verified', { exact: true }).waitFor({ timeout: SOLVE_TIMEOUT_MS });
}
