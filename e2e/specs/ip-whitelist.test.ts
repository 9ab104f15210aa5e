import { randomInt } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAccount, apiLogin } from '../support/accounts.ts';
import { launchBrowser } from '../support/browser.ts';
import { submitCredentials } from '../support/login.ts';
import { suiteApp } from '../support/suite-app.ts';
import { enableTwoFactorFromPage } from '../support/wallet.ts';

// Issue 31, part 2: Settings › IP whitelist in a real browser. The suite's app trusts the loopback proxy
// (TRUST_PROXY=loopback), so each browser context below plays a customer at an address of its own: its identity
// and settings calls carry that address in X-Forwarded-For, as a proxy in front of the app would add it.
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

const address = () => `198.18.${randomInt(256)}.${1 + randomInt(254)}`;

/** A browser context whose identity and resource calls come from `from` (the developer tools stay loopback). */
async function customerAt(from: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: suiteApp().baseUrl,
    viewport: { width: 1280, height: 800 },
  });
  await context.route(/\/api\/v2\/barong\/(identity|resource)\//, (route) =>
    route.continue({ headers: { ...route.request().headers(), 'x-forwarded-for': from } }),
  );
  await context.addInitScript(() => localStorage.setItem('privacyConsent', 'accepted'));
  return { context, page: await context.newPage() };
}

describe('Settings › IP whitelist', () => {
  it('adds this address with an authenticator code, then a login from another address is refused', async () => {
    const { email } = await activeAccount('ipwl');
    const home = address();
    const laptop = await customerAt(home);
    const page = laptop.page;
    // Signed in through the API, from this address (the login screen is used from the other two below).
    await apiLogin(page, email);
    const nextCode = await enableTwoFactorFromPage(page);
    await page.goto('/settings');

    const section = page.getByTestId('ip-whitelist-section');
    await section.getByText('No restriction: you may log in from any address.').waitFor();
    // Another address only: the list would shut this one out, and the server says so in the code dialog.
    await section.getByTestId('ip-whitelist-input').fill('203.0.113.0/24');
    await section.getByTestId('ip-whitelist-add').click();
    await page.getByTestId('api-key-totp').fill(await nextCode());
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('The list must include the address you are using now').waitFor();
    await page.keyboard.press('Escape');

    // This address, typed as its IPv4-mapped IPv6 form: listed as the IPv4 address.
    await section.getByTestId('ip-whitelist-input').fill(`::ffff:${home}`);
    await section.getByTestId('ip-whitelist-add').click();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Code is required').waitFor();
    await page.getByTestId('api-key-totp').fill(await nextCode());
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Address added to the IP whitelist').first().waitFor();
    const rows = section.getByTestId('ip-whitelist-row');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain(home);

    // The same account from another address: password and code are right, and the login is refused.
    const elsewhere = await customerAt(address());
    await submitCredentials(elsewhere.page, email);
    await elsewhere.page.getByText('Two-factor code').waitFor();
    await elsewhere.page.getByTestId('login-code').fill(await nextCode());
    await elsewhere.page.getByRole('button', { name: 'Verify' }).click();
    await elsewhere.page
      .getByText('Logins to this account are not allowed from your IP address.', { exact: false })
      .waitFor();
    expect(new URL(elsewhere.page.url()).pathname).toBe('/login');

    // From the listed address the same login gets in.
    const again = await customerAt(home);
    await submitCredentials(again.page, email);
    await again.page.getByText('Two-factor code').waitFor();
    await again.page.getByTestId('login-code').fill(await nextCode());
    await again.page.getByRole('button', { name: 'Verify' }).click();
    await again.page.waitForURL((url) => url.pathname === '/settings');

    // The refusal and the add are in the security log, under the IP whitelist.
    await page.reload();
    const log = page.getByTestId('security-log-section');
    await log.locator('[data-action="ip_whitelist.add"]').first().waitFor();
    await log.getByTestId('security-log-topic').click();
    await page.getByRole('option', { name: 'IP whitelist' }).click();
    await log.getByText('address not in the IP whitelist', { exact: false }).first().waitFor();

    // Removing the entry (with a code) lifts the restriction.
    await section.getByRole('button', { name: `Remove ${home}` }).click();
    await page.getByTestId('api-key-totp').fill(await nextCode());
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Address removed from the IP whitelist').first().waitFor();
    await expect.poll(() => rows.count()).toBe(0);

    for (const c of [laptop, elsewhere, again]) await c.context.close();
  });
});
