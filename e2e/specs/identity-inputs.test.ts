import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, pendingAccount } from '../support/accounts.ts';
import { launchBrowser, openPage } from '../support/browser.ts';
import { solveCaptcha } from '../support/captcha.ts';

/**
 * The length limits of the identity screens as a person meets them (issue 32, accounts items 5 and 6): what is
 * typed is stripped of what the field does not take first, then cut to the spec's length (docs/accounts.md#validation, #constants),
 * so characters that are stripped never count against the limit.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

describe('identity inputs: strip first, then cut', () => {
  it('the login field takes 12 digits in phone mode (item 5) and still takes an email that starts with digits', async () => {
    const { context, page } = await openPage(browser);
    await page.goto('/login');
    const field = page.getByLabel('Email or phone number');
    await field.fill('1234567890123456');
    expect(await field.inputValue()).toBe('123456789012');
    await field.fill('');
    await field.pressSequentially('1234567890123456');
    expect(await field.inputValue()).toBe('123456789012');
    await page.getByRole('textbox', { name: 'Country code' }).waitFor();
    // An email whose name is digits is typed through phone mode: the @ leaves it.
    await field.pressSequentially('@example.com');
    expect(await field.inputValue()).toBe('123456789012@example.com');
    await context.close();
  });

  it('the register phone keeps 14 digits of a value typed with letters', async () => {
    const { context, page } = await openPage(browser);
    await page.goto('/register');
    const phone = page.getByLabel('Phone number');
    await phone.fill('12ab345678901234567');
    expect(await phone.inputValue()).toBe('12345678901234');
    // Typed key by key, as a person would, the same.
    await phone.fill('');
    await phone.pressSequentially('12ab345678901234567');
    expect(await phone.inputValue()).toBe('12345678901234');
    await context.close();
  });

  it('the verify-account codes keep 6 digits of a value typed with letters', async () => {
    const { email } = await pendingAccount('inp', 'KR');
    const { context, page } = await openPage(browser);
    await page.goto('/login');
    await page.getByLabel('Email or phone number').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await solveCaptcha(page);
    await page.locator('form').getByRole('button', { name: 'Login' }).click();
    await page.waitForURL((url) => url.pathname === '/verify-account');
    for (const field of ['verify-phone-code', 'verify-email-code']) {
      const input = page.getByTestId(field);
      await input.fill('12ab3456789');
      expect(await input.inputValue()).toBe('123456');
      await input.fill('');
      await input.pressSequentially('12ab3456789');
      expect(await input.inputValue()).toBe('123456');
    }
    await context.close();
  });
});
