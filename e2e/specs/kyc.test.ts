import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAccount, apiLogin } from '../support/accounts.ts';
import { launchBrowser, openPage } from '../support/browser.ts';
import { operator } from '../support/cli.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

/** A small JPEG (by its signature) for the document, and a PNG for the selfie. */
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2048, 3)]);
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(2048, 5)]);

/** The KYC status button on settings shows the label once the webhook has arrived (reloading the page). */
async function waitForKycStatus(page: Page, text: string): Promise<void> {
  await expect
    .poll(
      async () => {
        await page.goto('/settings');
        const button = page.getByTestId('kyc-status');
        await button.waitFor();
        return button.textContent();
      },
      { timeout: 20_000, interval: 500, message: `KYC status never became ${text}` },
    )
    .toContain(text);
}

describe('identity verification (KYC)', () => {
  it('a level-2 user fills the profile, verifies with documents and a selfie, an operator approves', async () => {
    const { email } = await activeAccount('kyc');
    const { context, page } = await openPage(browser);
    // Signed in through the API (the login screen has its own specs), then on settings.
    await apiLogin(page, email);
    await page.goto('/settings');
    expect(await page.getByTestId('kyc-status').textContent()).toBe('KYC: Pending');

    // Withdrawing needs level 3: the prompt sends a user with an incomplete profile to the profile first.
    await page.goto('/deposit_withdraw');
    await page.getByTestId('tab-withdraw').click();
    await page.getByText('Please complete your profile').waitFor();
    await page.getByTestId('kyc-required-profile').click();
    await page.waitForURL((url) => url.pathname === '/settings');

    await page.getByRole('textbox', { name: 'Gender' }).click();
    await page.getByRole('option', { name: 'Male', exact: true }).click();
    await page.getByLabel('Date of birth').fill('1988-09-30');
    await page.getByLabel('Address').fill('2-3 Marunouchi');
    await page.getByLabel('Town').fill('Tokyo');
    await page.getByLabel('Postcode').fill('1000005');
    await page.getByRole('button', { name: 'Proceed' }).click();
    await page.waitForURL((url) => url.pathname === '/sumsub-kyc');

    // The provider's widget: the simulator's verification page in a frame.
    const widget = page.frameLocator('[data-testid="kyc-widget"]');
    await widget.getByText('Verify your identity').waitFor();
    // The documents the FAQ names, the user's own country (registered in Japan), and the app's dark theme.
    const docTypes = await widget
      .getByTestId('kyc-sim-doc-type')
      .locator('option')
      .evaluateAll((options) => options.map((o) => [(o as HTMLOptionElement).value, o.textContent]));
    expect(docTypes).toEqual([
      ['PASSPORT', 'Passport'],
      ['ID_CARD', 'National ID card'],
      ['DRIVERS', "Driver's licence"],
      ['OTHER', 'Military ID'],
    ]);
    expect(await widget.getByTestId('kyc-sim-country').inputValue()).toBe('JPN');
    const background = await widget
      .locator('main')
      .evaluate((main) => getComputedStyle(main).backgroundColor);
    expect(background).not.toBe('rgb(255, 255, 255)');
    expect(await widget.locator('html').getAttribute('data-theme')).toBe('dark');
    await widget.getByTestId('kyc-sim-doc-type').selectOption('PASSPORT');
    await widget.getByTestId('kyc-sim-submit').click();
    await widget.getByText('Please upload your document').waitFor();
    await widget
      .getByTestId('kyc-sim-front')
      .setInputFiles({ name: 'passport.jpg', mimeType: 'image/jpeg', buffer: JPEG });
    await widget
      .getByTestId('kyc-sim-selfie')
      .setInputFiles({ name: 'selfie.png', mimeType: 'image/png', buffer: PNG });
    await widget.getByTestId('kyc-sim-submit').click();
    await widget.getByTestId('kyc-sim-status').waitFor();
    await page.waitForURL((url) => url.pathname === '/success', { timeout: 20_000 });

    await waitForKycStatus(page, 'Under review');
    expect(await page.getByTestId('kyc-status').isDisabled()).toBe(true);
    await page.goto('/deposit_withdraw');
    await page.getByTestId('tab-withdraw').click();
    await page.getByText('Your identity verification is under review.').waitFor();

    expect(await operator('kyc', 'approve', email)).toContain('completed GREEN');
    await waitForKycStatus(page, 'Verified');
    const me = await page.evaluate(async () => (await fetch('/api/v2/barong/resource/users/me')).json());
    expect(me.level).toBe(3);

    await page.goto('/deposit_withdraw');
    await page.getByTestId('tab-withdraw').click();
    // Identity is no longer in the way: what is left is two-factor, which this user has not turned on.
    await page.getByTestId('withdraw-prompt-otp').waitFor();
    expect(await page.getByTestId('kyc-required').count()).toBe(0);
    await context.close();
  });
});
