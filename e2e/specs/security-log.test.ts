import { randomInt } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAccount, apiLogin, outbox } from '../support/accounts.ts';
import { launchBrowser, openPage } from '../support/browser.ts';
import { suiteApp } from '../support/suite-app.ts';

// Issue 31, part 1: Settings › Devices and Settings › Security log in a real browser.
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';

describe('Settings › Devices and Security log', () => {
  it('shows this device and another one, ends the other, and logs it all', async () => {
    const { email } = await activeAccount('seclog');
    const laptop = await openPage(browser);
    await apiLogin(laptop.page, email);

    // A second browser, on another system, from another address: a new device for this account.
    const address = `198.19.${randomInt(256)}.${1 + randomInt(254)}`;
    const other = await browser.newContext({
      baseURL: suiteApp().baseUrl,
      userAgent: FIREFOX_WINDOWS,
      extraHTTPHeaders: { 'X-Forwarded-For': address },
    });
    await other.addInitScript(() => localStorage.setItem('privacyConsent', 'accepted'));
    const phone = await other.newPage();
    await apiLogin(phone, email);
    const notice = (await outbox(email)).find((m) => m.template === 'security_new_device');
    expect(notice?.body).toContain('Firefox on Windows');

    const page = laptop.page;
    await page.goto('/settings');
    const devices = page.getByTestId('devices-section');
    await devices.getByTestId('device-row').nth(1).waitFor();
    const current = devices.locator('[data-testid="device-row"][data-current="true"]');
    await expect.poll(() => current.count()).toBe(1);
    expect(await current.textContent()).toContain('This device');
    expect(await current.textContent()).toContain('Chrome on Linux');
    const otherRow = devices.locator('[data-testid="device-row"][data-current="false"]');
    expect(await otherRow.textContent()).toContain('Firefox on Windows');
    expect(await otherRow.textContent()).toContain(address);

    await otherRow.getByRole('button', { name: /^End session/ }).click();
    await page.getByText('Session ended').first().waitFor();
    await expect.poll(() => otherRow.count()).toBe(0);
    await devices.getByText('No other device is signed in.').waitFor();

    // The ended browser is signed out: a protected page sends it to the login screen.
    await phone.goto('/settings');
    await phone.waitForURL((url) => url.pathname === '/login');

    // The log: the end, both logins (the second one a new device), newest first.
    const log = page.getByTestId('security-log-section');
    const rows = log.getByTestId('security-log-row');
    await log.locator('[data-action="session.end"]').waitFor();
    expect(await log.locator('[data-action="session.end"]').first().textContent()).toContain(
      'Session ended (ended from another device)',
    );
    const logins = log.locator('[data-action="login"]');
    await expect.poll(() => logins.count()).toBe(2);
    expect(await logins.first().textContent()).toContain('Login (new device)');
    expect(await logins.first().textContent()).toContain('Firefox on Windows');
    expect(await rows.first().getAttribute('data-action')).toBe('session.end');

    // One topic: the password changes have none yet.
    await log.getByTestId('security-log-topic').click();
    await page.getByRole('option', { name: 'Password' }).click();
    await log.getByText('No record found').waitFor();
    await log.getByTestId('security-log-topic').click();
    await page.getByRole('option', { name: 'Logins and sessions' }).click();
    await expect.poll(() => rows.count()).toBe(3);

    await other.close();
    await laptop.context.close();
  });
});
