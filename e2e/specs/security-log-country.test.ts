import { randomInt } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAccount, apiLogin, outbox } from '../support/accounts.ts';
import { launchBrowser } from '../support/browser.ts';
import { suiteApp } from '../support/suite-app.ts';

// Issue 31, part 1: a login from a new country, in a real browser. The suite's app reads a MaxMind DB country
// database written by the test support (GEOIP_COUNTRY_DB, e2e/support/global-setup.ts): 198.51.100.0/24 is in
// Austria, 203.0.113.0/24 in Germany. Each browser context is a customer behind the trusted proxy at one address.
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

async function customerAt(address: string) {
  const context = await browser.newContext({
    baseURL: suiteApp().baseUrl,
    extraHTTPHeaders: { 'X-Forwarded-For': address },
  });
  await context.addInitScript(() => localStorage.setItem('privacyConsent', 'accepted'));
  return { context, page: await context.newPage() };
}

describe('Settings › Security log: the country of a login', () => {
  it('mails "new country" for a login from Germany after Austria, and shows both countries in the log', async () => {
    const { email } = await activeAccount('geo');
    const vienna = await customerAt(`198.51.100.${1 + randomInt(254)}`);
    await apiLogin(vienna.page, email);
    const berlinAddress = `203.0.113.${1 + randomInt(254)}`;
    const berlin = await customerAt(berlinAddress);
    await apiLogin(berlin.page, email);

    const notices = (await outbox(email)).filter((m) => m.template?.startsWith('security_new_'));
    expect(notices.map((m) => m.template)).toEqual(['security_new_country']);
    expect(notices[0]?.body).toContain(`from ${berlinAddress} in Germany (DE)`);

    const page = berlin.page;
    await page.goto('/settings');
    const log = page.getByTestId('security-log-section');
    const logins = log.locator('[data-action="login"]');
    // The log loads after the page: on a busy machine well past expect.poll's default second.
    await expect.poll(() => logins.count(), { timeout: 20_000 }).toBe(2);
    expect(await logins.first().textContent()).toContain('Login (new country)');
    expect(await logins.first().getByTestId('security-log-country').textContent()).toBe('Germany (DE)');
    expect(await logins.first().textContent()).toContain(berlinAddress);
    expect(await logins.nth(1).getByTestId('security-log-country').textContent()).toBe('Austria (AT)');
    expect(await logins.nth(1).textContent()).not.toContain('new country');

    await vienna.context.close();
    await berlin.context.close();
  });
});
