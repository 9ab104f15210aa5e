import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, latestCode, PASSWORD, unique } from '../support/accounts.ts';
import { launchBrowser, openPage } from '../support/browser.ts';
import { captchaWidget } from '../support/captcha.ts';
import { advanceServerClock } from '../support/clock.ts';
import { expectAccessibleDialog, topDialog } from '../support/dialogs.ts';
import { chooseWithArrows, tabTo, waitForFocus } from '../support/keyboard.ts';
import { totpCodes } from '../support/totp.ts';

/**
 * Keyboard-only account flows (issue #19, WCAG 2.1.1, 2.4.3, 2.4.7): registration with both codes, enabling 2FA,
 * and an API key. No click and no fill: Tab and Shift+Tab to move (each stop must show its focus), typing, Enter,
 * Space and the arrow keys. Each dialog on the way is checked open: name, aria-modal, focus kept inside, axe-core
 * in both themes, and the focus given back on close.
 */

const POLL = { timeout: 20_000, interval: 100 };
const RATE_LIMITED = 'Too many requests. Please wait a moment and try again.';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

/** Ticks the form's captcha with Space and waits until it is solved. */
async function keyboardCaptcha(page: Page): Promise<void> {
  await tabTo(page, captchaWidget(page).getByRole('checkbox', { name: "I'm not a robot" }));
  await page.keyboard.press('Space');
  await captchaWidget(page).getByText('Verified', { exact: true }).waitFor({ timeout: 45_000 });
}

describe('keyboard only: account', () => {
  it('registers with the phone and email codes; then enables 2FA and makes, copies and switches off an API key', async () => {
    const { context, page } = await openPage(browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const email = `kreg${unique()}@example.com`;
    // A Japanese mobile number (090, then a digit from 1 to 9 and seven more).
    const phone = `909${unique().slice(-7)}`;

    // Register: every field from the keyboard, the country with the arrow keys, the terms with Space.
    await page.goto('/register');
    const form = page.locator('main form');
    await form.waitFor();
    for (const [label, text] of [
      ['First name', 'Mina'],
      ['Last name', 'Kimura'],
      ['Email', email],
    ] as const) {
      await tabTo(page, form.getByLabel(label, { exact: true }));
      await page.keyboard.type(text);
    }
    await tabTo(page, form.getByRole('textbox', { name: 'Country' }));
    await chooseWithArrows(page, 'Japan (+81)');
    expect(await form.getByLabel('Code', { exact: true }).inputValue()).toBe('+81');
    await tabTo(page, form.getByLabel('Phone number'));
    await page.keyboard.type(phone);
    await tabTo(page, form.getByLabel('Password', { exact: true }));
    await page.keyboard.type(PASSWORD);
    await tabTo(page, form.getByLabel('Confirm password'));
    await page.keyboard.type(PASSWORD);
    const register = form.getByRole('button', { name: 'Register' });
    for (let tries = 0; ; tries++) {
      await keyboardCaptcha(page);
      const terms = form.getByRole('checkbox', { name: 'I agree to the Terms and Conditions' });
      if (!(await terms.isChecked())) {
        await tabTo(page, terms);
        await page.keyboard.press('Space');
        expect(await terms.isChecked()).toBe(true);
      }
      await tabTo(page, register);
      await page.keyboard.press('Enter');
      // Past the per-minute limit of the context's address, the minute passes on the server's clock.
      const limited = page.getByText(RATE_LIMITED).first();
      await page
        .waitForURL((url) => url.pathname === '/verify-account', { timeout: 20_000 })
        .catch(() => undefined);
      if (new URL(page.url()).pathname === '/verify-account') break;
      if (tries >= 1 || !(await limited.isVisible())) throw new Error('registration did not go through');
      await advanceServerClock(61_000);
      await tabTo(page, form.getByLabel('Confirm password'), { backwards: true });
    }

    // Verify: both codes typed, Verify with Enter; the account can log in.
    const phoneCode = page.getByTestId('verify-phone-code');
    await tabTo(page, phoneCode);
    await page.keyboard.type(await latestCode(`81${phone}`));
    await tabTo(page, page.getByTestId('verify-email-code'));
    await page.keyboard.type(await latestCode(email));
    await tabTo(page, page.locator('main form').getByRole('button', { name: 'Verify' }));
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/login');

    // Enable 2FA in the settings: the dialog takes the focus and, once enabled, gives it back to the switch.
    await apiLogin(page, email);
    await page.goto('/settings');
    const toggle = page.getByTestId('otp-toggle');
    await tabTo(page, toggle, { max: 80 });
    expect(await toggle.textContent()).toBe('Enable');
    await page.keyboard.press('Enter');
    const secretText = page.getByTestId('otp-secret');
    await secretText.waitFor(POLL);
    await expectAccessibleDialog(page);
    const nextCode = totpCodes((await secretText.textContent())?.trim() ?? '');
    await tabTo(page, page.getByTestId('otp-code'));
    await page.keyboard.type(await nextCode());
    await page.keyboard.press('Enter');
    await page.getByText('2FA enabled').first().waitFor();
    await topDialog(page).waitFor({ state: 'detached' });
    await expect.poll(() => toggle.textContent(), POLL).toBe('Disable');
    await waitForFocus(page, toggle);

    // An API key: the code dialog, then the secret's dialog, whose Copy button puts the secret on the clipboard.
    const create = page.getByTestId('api-key-create');
    await tabTo(page, page.getByTestId('api-tokens-link'));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'My Api Tokens' }).waitFor();
    await tabTo(page, create, { max: 80 });
    await page.keyboard.press('Enter');
    await page.getByTestId('api-key-totp').waitFor();
    await waitForFocus(page, page.getByTestId('api-key-totp'));
    await expectAccessibleDialog(page);
    await tabTo(page, page.getByTestId('api-key-totp'));
    await page.keyboard.type(await nextCode());
    await page.keyboard.press('Enter');
    await page.getByText('Api key created').first().waitFor();
    const secret = page.getByTestId('api-key-secret');
    await secret.waitFor();
    const kid = await page.getByTestId('api-key-access').inputValue();
    await expectAccessibleDialog(page);
    await tabTo(page, topDialog(page).getByRole('button', { name: 'Copy Secret key' }));
    await page.keyboard.press('Enter');
    await topDialog(page).getByText('Copied!').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await secret.inputValue());
    await tabTo(page, topDialog(page).getByRole('button', { name: 'Done' }));
    await page.keyboard.press('Enter');
    await topDialog(page).waitFor({ state: 'detached' });
    await waitForFocus(page, create);

    // The key's switch is named by its visible label first (WCAG 2.5.3); Space asks for the code and turns it off.
    const active = page.getByRole('switch', { name: `Active: API key ${kid}`, exact: true });
    await tabTo(page, active);
    await page.keyboard.press('Space');
    await page.getByTestId('api-key-totp').waitFor();
    await waitForFocus(page, page.getByTestId('api-key-totp'));
    await page.keyboard.type(await nextCode());
    await page.keyboard.press('Enter');
    const inactive = page.getByRole('switch', { name: `Inactive: API key ${kid}`, exact: true });
    await inactive.waitFor({ ...POLL, state: 'attached' });
    expect(await inactive.isChecked()).toBe(false);
    await context.close();
  }, 240_000);
});
