import { grantRole } from '@exchange/server/harness';
import { STAFF_ROLES } from '@exchange/shared';
import pg from 'pg';
import type { Browser } from 'playwright-core';
import { expect } from 'vitest';
import { activeAccount, apiLogin } from './accounts.ts';
import { openPage } from './browser.ts';
import { suiteApp } from './suite-app.ts';
import { enableTwoFactorFromPage } from './wallet.ts';

/**
 * Grants `role` as `npm run cli -- staff grant <email> <role>` does (its staff command's repository call), in this
 * process: a child process spent seconds starting (the whole command line's TypeScript loaded) for every staff
 * member. The other specs' operator commands (support/cli.ts) still run the command line itself. Returns what the
 * grant found: whether the user has two-factor on (the console opens only then).
 */
async function grantStaff(email: string, role: string): Promise<{ otp: boolean } | undefined> {
  const db = new pg.Pool({ connectionString: suiteApp().databaseUrl, max: 1 });
  try {
    return await grantRole(db, email, role);
  } finally {
    await db.end();
  }
}

/** A signed-in staff member with two-factor on and a role granted by the operator, on /admin, stepped up. */
export async function signedInStaff(browser: Browser, role: string) {
  const { email } = await activeAccount(role);
  const { context, page } = await openPage(browser);
  await apiLogin(page, email);
  const nextCode = await enableTwoFactorFromPage(page);
  expect(STAFF_ROLES).toContain(role);
  expect(await grantStaff(email, role)).toEqual({ otp: true });
  await page.goto('/admin');
  // The console asks for a fresh authenticator code before any staff action.
  await page.getByText('Confirm it is you').waitFor();
  await page.getByTestId('admin-step-up-code').locator('input').first().click();
  await page.keyboard.type(await nextCode());
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByTestId('admin-role').getByText(`Role: ${role}`).waitFor();
  return { email, context, page };
}
