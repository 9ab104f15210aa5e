import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  activeAccount,
  apiLogin,
  DEMO_PASSWORD,
  latestCode,
  PASSWORD,
  postFromPage,
} from '../support/accounts.ts';
import { axeViolations, blocking, describeViolations } from '../support/axe.ts';
import { launchBrowser, openPage } from '../support/browser.ts';
import { captchaWidget } from '../support/captcha.ts';
import { focusEscape, focusWithin, hasFocus, tabTo } from '../support/keyboard.ts';

/** Keyboard-only flows (issue #19, WCAG 2.1.1 and 2.4.3): no click and no fill, only Tab, typing and keys. */

const POLL = { timeout: 15_000, interval: 100 };

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

/** Fills the login form's first step from the keyboard, ticks the captcha with Space and submits with Enter. */
async function keyboardCredentials(page: Page, email: string): Promise<void> {
  const form = page.locator('main form');
  await tabTo(page, form.getByLabel('Email or phone number'));
  await page.keyboard.type(email);
  await tabTo(page, form.getByLabel('Password', { exact: true }));
  await page.keyboard.type(PASSWORD);
  await tabTo(page, captchaWidget(page).getByRole('checkbox', { name: "I'm not a robot" }));
  await page.keyboard.press('Space');
  await captchaWidget(page).getByText('Verified', { exact: true }).waitFor({ timeout: 45_000 });
  await tabTo(page, form.getByRole('button', { name: 'Login' }));
  await page.keyboard.press('Enter');
}

describe('keyboard only', () => {
  it('logs in with the emailed code in the second step; the dialog traps the focus and gives it back', async () => {
    const { email } = await activeAccount('keys');
    const { context, page } = await openPage(browser);
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Login' }).waitFor();

    // The second step opens with the focus on its code field and keeps it inside; Escape closes it and clears the
    // form, whose first field gets the focus back.
    await keyboardCredentials(page, email);
    const dialog = '[role="dialog"]';
    await page.locator(dialog).waitFor();
    await expect.poll(() => hasFocus(page.getByTestId('login-code')), POLL).toBe(true);
    expect(await focusEscape(page, page.locator(dialog), 6)).toBeUndefined();
    const found = blocking(await axeViolations(page));
    expect(found, describeViolations(found)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.locator(dialog).waitFor({ state: 'detached' });
    const identifier = page.locator('main form').getByLabel('Email or phone number');
    await expect.poll(() => hasFocus(identifier), POLL).toBe(true);

    // Again, to the end: Get OTP with Enter (the countdown that replaces it keeps the focus), code, Enter.
    await keyboardCredentials(page, email);
    await page.locator(dialog).waitFor();
    await tabTo(page, page.getByTestId('login-get-otp'));
    await page.keyboard.press('Enter');
    await page.getByText('OTP code sent successfully on your email').waitFor();
    await expect.poll(() => focusWithin(page.locator(dialog)), POLL).toBe(true);
    await tabTo(page, page.getByTestId('login-code'), { backwards: true, max: 10 });
    await page.keyboard.type(await latestCode(email));
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/settings');
    await context.close();
  });

  it('places a limit order and cancels it', async () => {
    const { context, page } = await openPage(browser);
    await apiLogin(page, 'bob@example.com', DEMO_PASSWORD);
    // Bob is shared with other spec files: whatever they left open goes, so his open orders start empty.
    await postFromPage(page, '/api/v2/peatio/market/orders/cancel', {});
    await page.goto('/trade/ethusdt');
    await page.getByTestId('order-book').waitFor();
    const form = page.getByTestId('buy-form');
    const rows = page.getByTestId('open-orders').locator('tbody tr');
    await expect.poll(() => rows.count(), POLL).toBe(0);

    // A bid far below the market: it rests in the book until cancelled.
    await tabTo(page, form.getByLabel('Price'), { max: 120 });
    await page.keyboard.type('1');
    await tabTo(page, form.getByLabel('Amount'));
    await page.keyboard.type('0.01');
    await tabTo(page, form.getByRole('button', { name: 'Buy ETH' }));
    await page.keyboard.press('Enter');
    await page.getByText('Order placed successfully').last().waitFor();
    await expect.poll(() => rows.count(), POLL).toBe(1);
    await page.locator('[data-testid="book-bid"][data-price="1.00"]').waitFor(POLL);

    await tabTo(page, rows.first().getByRole('button', { name: 'Cancel' }), { max: 40 });
    await page.keyboard.press('Enter');
    await page.getByText('Order cancelled successfully').last().waitFor();
    await expect.poll(() => rows.count(), POLL).toBe(0);
    await context.close();
  });
});
