import { createHmac } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  activeAccount,
  apiLogin,
  barong,
  latestCode,
  outbox,
  PASSWORD,
  unique,
} from '../support/accounts.ts';
import { launchBrowser, openPage } from '../support/browser.ts';
import { solveCaptcha } from '../support/captcha.ts';
import { serverNow } from '../support/clock.ts';
import { loginWithEmailCode, submitCredentials } from '../support/login.ts';
import { settle } from '../support/settle.ts';
import { suiteApp } from '../support/suite-app.ts';
import { totpCodes } from '../support/totp.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

/** Logs out from the header; from any page, protected or not, the visitor lands on the landing page. */
async function logout(page: Page): Promise<void> {
  await page.getByTestId('user-menu').click();
  // Not just passing through: once every call under way has its answer (a refused one could send the visitor
  // to /login) and the page has drawn what followed, the guard of the protected page has not sent them on.
  await settle(page, () => page.getByRole('menuitem', { name: 'Logout' }).click());
  await page.getByText('Logged out successfully').waitFor();
  expect(new URL(page.url()).pathname).toBe('/');
}

describe('two-factor authentication and API tokens', () => {
  it('enables 2FA, logs in with the TOTP code and manages an API token', async () => {
    const { email } = await activeAccount('sec');
    const { context, page } = await openPage(browser);
    await loginWithEmailCode(page, email);
    expect(await page.getByTestId('api-tokens-link').count()).toBe(0);
    await page.goto('/api-tokens');
    await page.waitForURL((url) => url.pathname === '/settings');

    await page.getByTestId('otp-toggle').click();
    await page.getByRole('button', { name: 'Enable' }).last().click();
    await page.getByText('Code is required.').waitFor();
    const secret = (await page.getByTestId('otp-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    // The server sends Barong's bare base64 PNG; the screen adds the data URL prefix, so the QR code decodes.
    const qrImage = page.getByAltText('Two-factor QR code');
    expect(await qrImage.getAttribute('src')).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    const width = await qrImage.evaluate((img: HTMLImageElement) =>
      img.decode().then(() => img.naturalWidth),
    );
    expect(width).toBeGreaterThan(0);
    const nextCode = totpCodes(secret);
    await page.getByTestId('otp-code').fill(await nextCode());
    await page.getByRole('button', { name: 'Enable' }).last().click();
    await page.getByText('2FA enabled').waitFor();
    await page.getByTestId('api-tokens-link').waitFor();
    await logout(page);

    await submitCredentials(page, email);
    await page.getByText('Two-factor code').waitFor();
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('2FA Code Required').waitFor();
    await page.getByTestId('login-code').fill('123');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('Invalid 2FA Code').waitFor();
    // A wrong 6-digit code is the server's refusal: it counts, and the step says how many tries are left.
    await page.getByTestId('login-code').fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText(/^Invalid 2FA Code\. You have \d+ attempts left\.$/).waitFor();
    await page.getByTestId('login-code').fill(await nextCode());
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((url) => url.pathname === '/settings');
    await page.getByText('Logged in successfully').waitFor();

    await page.getByTestId('api-tokens-link').click();
    await page.getByRole('heading', { name: 'My Api Tokens' }).waitFor();
    await page.getByTestId('api-key-create').click();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Code is required').waitFor();
    await page.getByTestId('api-key-totp').fill(await nextCode());
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Api key created').waitFor();
    const kid = await page.getByTestId('api-key-access').inputValue();
    expect(kid).toMatch(/^[0-9a-f]+$/);
    const apiSecret = await page.getByTestId('api-key-secret').inputValue();
    expect(apiSecret.length).toBeGreaterThan(20);
    // A program outside the browser signs in with the key: HMAC-SHA256(secret, nonce + kid), its nonce the
    // server's time (a test may have moved the server's clock ahead: a program in step with the server).
    const nonce = String(await serverNow());
    const signed = await fetch(`${suiteApp().baseUrl}/api/v2/barong/resource/users/me`, {
      headers: {
        'X-Auth-Apikey': kid,
        'X-Auth-Nonce': nonce,
        'X-Auth-Signature': createHmac('sha256', apiSecret)
          .update(nonce + kid)
          .digest('hex'),
      },
    });
    expect(signed.status, await signed.clone().text()).toBe(200);
    expect(((await signed.json()) as { otp: boolean }).otp).toBe(true);
    await page.getByRole('button', { name: 'Copy Secret key' }).click();
    await page.getByText('Copied!').waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByTestId('api-key-row').getByText(kid).waitFor();

    // The switch's name starts with its visible label (WCAG 2.5.3 label in name).
    const toggle = (state: string) =>
      page.getByRole('switch', { name: `${state}: API key ${kid}`, exact: true });
    expect(await toggle('Active').isChecked()).toBe(true);
    await page.getByTestId('api-key-row').getByText('Active').click();
    await page.getByTestId('api-key-totp').fill(await nextCode());
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByTestId('api-key-row').getByText('Inactive').waitFor();
    expect(await toggle('Inactive').isChecked()).toBe(false);

    await page.getByRole('button', { name: `Delete API key ${kid}` }).click();
    await page.getByTestId('api-key-totp').fill(await nextCode());
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('You have no API tokens yet.').waitFor();
    await context.close();
    // Five TOTP steps are used in turn; the server's clock moves to each that is not valid yet (support/totp.ts).
  }, 150_000);
});

describe('passwords and phone', () => {
  it('resets a forgotten password through the emailed link', async () => {
    const { email } = await activeAccount('sec');
    const { context, page } = await openPage(browser);
    await page.goto('/forgot-password');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('Please enter your email').waitFor();
    await page.getByLabel('Email').fill(email);
    await solveCaptcha(page);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    const [mail] = await outbox(email, 1);
    const link = /\/password-reset\/([\w-]+)/.exec(mail?.body ?? '')?.[1];
    expect(link).toBe(mail?.secret);

    await page.goto(`/password-reset/${link}`);
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByText('Password Required').waitFor();
    await page.getByLabel('New password', { exact: true }).fill('Newer-pass2');
    await page.getByLabel('Confirm new password').fill('Newer-pass3');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByText('Password Not Matching').waitFor();
    await page.getByLabel('Confirm new password').fill('Newer-pass2');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByText('Your password has been reset. Please login.').waitFor();

    await submitCredentials(page, email, 'Newer-pass2');
    await page.getByText('Verify your login').waitFor();
    await context.close();
  });

  it('changes the password and the phone number from the settings', async () => {
    const { email } = await activeAccount('sec');
    const { context, page } = await openPage(browser);
    // Signed in through the API (the login screen is the other tests' part), then on settings.
    await apiLogin(page, email);
    await page.goto('/settings');

    await page.getByTestId('change-phone').click();
    await page.waitForURL((url) => url.pathname === '/update-number/phone');
    await page.getByRole('textbox', { name: 'Country' }).fill('India');
    await page.getByRole('option', { name: 'India (+91)' }).click();
    // An Indian mobile number (98 and eight digits).
    const national = `98${unique().slice(-8)}`;
    await page.getByLabel('New phone number').fill(`${national.slice(0, 4)}-${national.slice(4)}`);
    expect(await page.getByLabel('New phone number').inputValue()).toBe(national);
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('Please enter OTP Code').waitFor();
    await page.getByTestId('phone-code').fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('Verification code is invalid').waitFor();
    await page.getByTestId('phone-code').fill(await latestCode(`91${national}`));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((url) => url.pathname === '/settings');
    await page.getByTestId('profile-phone').getByText(`+91${national}`).waitFor();

    await page.getByRole('textbox', { name: 'Gender' }).click();
    await page.getByRole('option', { name: 'Female' }).click();
    await page.getByLabel('Date of birth').fill(`${new Date().getFullYear() - 10}-01-01`);
    await page.getByLabel('Address').fill('1-1 Chiyoda');
    await page.getByLabel('Town').fill('Tokyo');
    await page.getByLabel('Postcode').fill('100-0001');
    expect(await page.getByLabel('Postcode').inputValue()).toBe('1000001');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('You must be at least 18 years old').waitFor();
    await page.getByLabel('Date of birth').fill('1990-05-01');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Profile saved successfully').waitFor();
    // Save, then the KYC step (docs/kyc.md#states): what the check needs, and a button into the widget.
    await page.waitForURL((url) => url.pathname === '/kyc');
    expect(await page.getByTestId('kyc-step-status').textContent()).toBe('Pending');
    for (const document of ['Passport', 'National ID card', 'Driver’s licence', 'Military ID'])
      await page.getByTestId('kyc-step-documents').getByText(document).waitFor();
    await page.getByRole('link', { name: 'Start verification' }).waitFor();
    await page.getByRole('link', { name: 'Go to settings' }).click();
    await page.waitForURL((url) => url.pathname === '/settings');

    await page.getByTestId('change-password').click();
    const submit = page.getByRole('dialog').getByRole('button', { name: 'Change password' });
    await submit.click();
    expect(await page.getByText('Password Required').count()).toBe(3);
    expect(await page.getByLabel('Old password').getAttribute('maxlength')).toBe('29');
    await page.getByLabel('Old password').fill('Wrong-pass9');
    await page.getByLabel('New password').fill('Newer-pass2');
    await page.getByLabel('Confirm password').fill('Newer-pass3');
    await submit.click();
    await page.getByText("Password doesn't match").waitFor();
    await page.getByLabel('Confirm password').fill('Newer-pass2');
    await submit.click();
    await page.getByText('Old password is incorrect').waitFor();
    await page.getByLabel('Old password').fill(PASSWORD);
    await submit.click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByText('Password changed successfully. Please login again.').waitFor();
    const me = await page.request.get(barong('/resource/users/me'));
    expect(me.status()).toBe(401);
    await context.close();
  });
});
