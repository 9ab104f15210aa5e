import type { Browser } from 'playwright-core';
import { expect } from 'vitest';
import { activeAccount, apiLogin } from './accounts.ts';
import { openPage } from './browser.ts';
import { operator } from './cli.ts';
import { enableTwoFactorFromPage } from './wallet.ts';

/** A signed-in staff member with two-factor on and a role granted on the command line, on /admin, stepped up. */
export async function signedInStaff(browser: Browser, role: string) {
  const { email } = await activeAccount(role);
  const { context, page } = await openPage(browser);
  await apiLogin(page, email);
  const nextCode = await enableTwoFactorFromPage(page);
  expect(await operator('staff', 'grant', email, role)).toContain(`is now ${role}`);
  await page.goto('/admin');
  // The console asks for a fresh authenticator code before any staff action.
  await page.getByText('Confirm it is you').waitFor();
  await page.getByTestId('admin-step-up-code').locator('input').first().click();
  await page.keyboard.type(await nextCode());
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByTestId('admin-role').getByText(`Role: ${role}`).waitFor();
  return { email, context, page };
}
