import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  activeAccount,
  apiLogin,
  barong,
  latestCode,
  PASSWORD,
  pendingAccount,
  unique,
} from '../support/accounts.ts';
import { launchBrowser, openPage } from '../support/browser.ts';
import { captchaWidget, solveCaptcha } from '../support/captcha.ts';
import { loginWithEmailCode } from '../support/login.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

describe('registration and login', () => {
  it('registers, changes the number, verifies both codes, logs in with the emailed code and logs out', async () => {
    const { context, page } = await openPage(browser);
    const email = `reg${unique()}@example.com`;
    await page.goto('/register');
    await page.getByText('Enter the details as per the valid legal documents').waitFor();
    await page.getByLabel('First name').fill('Asha');
    await page.getByLabel('Last name').fill('Patel');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('textbox', { name: 'Country' }).click();
    await page.getByRole('option', { name: 'India (+91)' }).click();
    expect(await page.getByLabel('Code', { exact: true }).inputValue()).toBe('+91');
    await page.getByLabel('Phone number').fill('09876543210');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('checkbox', { name: 'I agree to the Terms and Conditions' }).check();
    await solveCaptcha(page);
    await page.locator('form').getByRole('button', { name: 'Register' }).click();

    await page.waitForURL((url) => url.pathname === '/verify-account');
    await page.getByText('Phone OTP (sent to 91********10)').waitFor();
    await page.getByText(`Email OTP (sent to re${'*'.repeat(email.indexOf('@') - 2)}@example.com)`).waitFor();
    // The codes were just sent: each channel shows the 60 s countdown from the start, not Get OTP.
    for (const channel of ['phone', 'email']) {
      const countdown = page.getByTestId(`verify-${channel}-get-otp-countdown`);
      await countdown.waitFor();
      expect(await countdown.textContent()).toMatch(/^Resend OTP in (60|59|58|57|56|55)s$/);
      expect(await page.getByTestId(`verify-${channel}-get-otp`).count()).toBe(0);
    }
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('Please enter phone OTP Code').waitFor();
    await page.getByText('Please enter email OTP Code').waitFor();
    // Change number: the server changes it only with the registration token the screen got from the registration.
    await page.getByRole('button', { name: 'Change number' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change number' });
    await dialog.getByRole('textbox', { name: 'Country code' }).click();
    await page.getByRole('option', { name: '+91 India' }).click();
    await dialog.getByLabel('Phone number').fill('9876512345');
    await solveCaptcha(page);
    await dialog.getByRole('button', { name: 'Update' }).click();
    await page.getByText('Phone number updated. A new code has been sent.').waitFor();
    await page.getByText('Phone OTP (sent to 91********45)').waitFor();
    await page.getByTestId('verify-phone-code').fill('12ab34');
    expect(await page.getByTestId('verify-phone-code').inputValue()).toBe('1234');
    await page.getByTestId('verify-phone-code').fill(await latestCode('919876512345'));
    await page.getByTestId('verify-email-code').fill(await latestCode(email));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((url) => url.pathname === '/login');

    await loginWithEmailCode(page, email);
    await page.getByText('Logged in successfully').waitFor();
    await page.getByTestId('profile-email').getByText(email).waitFor();
    await page.getByTestId('profile-phone').getByText('+919876512345').waitFor();
    await page.getByTestId('kyc-status').getByText('KYC: Pending').waitFor();

    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.getByText('Logged out successfully').waitFor();
    await page.locator('header').getByRole('link', { name: 'Login' }).waitFor();
    expect((await page.request.get(barong('/resource/users/me'))).status()).toBe(401);
    await context.close();
  });

  it('shows the spec messages for refused registration input', async () => {
    const { context, page } = await openPage(browser);
    await page.goto('/register');
    await page.locator('form').getByRole('button', { name: 'Register' }).click();
    await page.getByText('Please enter your password').waitFor();
    await page.getByText('Please enter your confirm password').waitFor();
    expect(await page.getByText('This field is required').count()).toBe(5);

    await page.getByLabel('First name').fill('Al1');
    expect(await page.getByLabel('First name').inputValue()).toBe('Al');
    await page.getByLabel('Last name').fill('-Patel');
    await page.getByLabel('Email').fill('asha@ex.com');
    await page.getByLabel('Password', { exact: true }).fill('weakpass');
    await page.getByLabel('Confirm password').fill('weakpas');
    await page.getByText('Password and confirm password do not match').waitFor();
    await page.locator('form').getByRole('button', { name: 'Register' }).click();
    expect(await page.getByText('Invalid name').count()).toBe(2);
    await page.getByText('Invalid Email').waitFor();
    await page
      .getByText(
        'Password must be 8-64 characters with at least one uppercase letter, one lowercase letter and one special character (#?!@$%^&*-)',
      )
      .waitFor();
    await page.getByText('Please accept the terms and conditions').waitFor();
    await context.close();
  });

  it('asks to verify the captcha before a login is sent, and the solved widget passes the server', async () => {
    const { context, page } = await openPage(browser);
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/identity/sessions'))
        posts.push(request.url());
    });
    await page.goto('/login');
    await page.getByLabel('Email or phone number').fill(`nobody${unique()}@example.com`);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    const login = page.locator('form').getByRole('button', { name: 'Login' });
    await login.click();
    await page.getByText('Verify the captcha').waitFor();
    expect(posts).toEqual([]);

    await solveCaptcha(page);
    expect(await page.getByText('Verify the captcha').count()).toBe(0);
    const answer = page.waitForResponse(
      (response) => response.request().method() === 'POST' && response.url().endsWith('/identity/sessions'),
    );
    await login.click();
    const { errors } = (await (await answer).json()) as { errors: string[] };
    // Refused for the unknown account, not for the captcha: our server verified the widget's answer.
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.filter((e) => e.startsWith('identity.captcha.'))).toEqual([]);
    await context.close();
  });

  it('tells how many chances are left after a wrong password', async () => {
    const { email } = await activeAccount('id');
    const { context, page } = await openPage(browser);
    await page.goto('/login');
    await page.locator('form').getByRole('button', { name: 'Login' }).click();
    await page.getByText('Please enter your email').waitFor();
    await page.getByText('Please enter your password').waitFor();
    await page.getByLabel('Email or phone number').fill('not-an-email');
    await page.locator('form').getByRole('button', { name: 'Login' }).click();
    await page.getByText('Enter valid email').waitFor();

    await page.getByLabel('Email or phone number').fill('12ab');
    await page.getByRole('textbox', { name: 'Country code' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Country code' }).inputValue()).toBe('+43 Austria');
    await page.locator('form').getByRole('button', { name: 'Login' }).click();
    await page.getByText('Enter valid number').waitFor();

    await page.getByLabel('Email or phone number').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('Wrong-pass1');
    await solveCaptcha(page);
    await page.locator('form').getByRole('button', { name: 'Login' }).click();
    await page
      .getByText('Incorrect password. You have 4 more chances to input the correct password.')
      .waitFor();
    // The server spent the answer: the widget is reset for the next attempt.
    await captchaWidget(page).getByText("I'm not a robot").waitFor();
    await context.close();
  });

  it('sends a login of an unverified account to /verify-account with the notice', async () => {
    const { email } = await pendingAccount('pend', 'KR');
    const { context, page } = await openPage(browser);
    await page.goto('/login');
    await page.getByLabel('Email or phone number').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await solveCaptcha(page);
    await page.locator('form').getByRole('button', { name: 'Login' }).click();
    await page.waitForURL((url) => url.pathname === '/verify-account');
    await page.getByText('A verification code has been sent to your phone and email').waitFor();
    await page.getByText(/^Phone OTP \(sent to 82\*+\d{2}\)$/).waitFor();
    await page.getByTestId('verify-phone-get-otp-countdown').waitFor();
    await page.getByTestId('verify-email-get-otp-countdown').waitFor();
    // Without a registration held in state, the screen sends the visitor to /login.
    await page.goto('/');
    await page.goto('/verify-account');
    await page.waitForURL((url) => url.pathname === '/login');
    await context.close();
  });

  it('asks for the OTP code in the second step and resets the form when it is closed', async () => {
    const { phone } = await activeAccount('id');
    const { context, page } = await openPage(browser);
    await page.goto('/2fa');
    await page.getByLabel('Email or phone number').fill(phone.slice(2));
    // Picking the chosen country (Austria, the default) again keeps it: the field is required, nothing clears it.
    const countryCode = page.getByRole('textbox', { name: 'Country code' });
    await countryCode.fill('Austria');
    await page.getByRole('option', { name: '+43 Austria' }).click();
    // The field shows the chosen option's label once it loses focus (the typed search until then).
    await countryCode.blur();
    expect(await countryCode.inputValue()).toBe('+43 Austria');
    await page.getByRole('textbox', { name: 'Country code' }).fill('Japan');
    await page.getByRole('option', { name: '+81 Japan' }).click();
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await solveCaptcha(page);
    const login = page.locator('form').getByRole('button', { name: 'Login' });
    await login.click();
    await page.getByText('Verify your login').waitFor();
    expect(await login.isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('OTP code Required').waitFor();
    await page.getByTestId('login-code').fill('123');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('Invalid OTP code').waitFor();
    await page.getByTestId('login-get-otp').click();
    await page.getByText('OTP code sent successfully on your phone').waitFor();
    await page
      .getByTestId('login-get-otp-countdown')
      .getByText(/Resend OTP in \d+s/)
      .waitFor();
    await page.keyboard.press('Escape');
    await page.getByText('Verify your login').waitFor({ state: 'detached' });
    expect(await page.getByLabel('Email or phone number').inputValue()).toBe('');
    expect(await login.isDisabled()).toBe(false);
    // Closing the dialog also resets the captcha.
    await captchaWidget(page).getByText("I'm not a robot").waitFor();
    expect(await captchaWidget(page).getByText('Verified', { exact: true }).count()).toBe(0);
    await context.close();
  });

  it('keeps signed-in users off the guest pages and ends a lost session at /login', async () => {
    const { email } = await activeAccount('id');
    const { context, page } = await openPage(browser);
    // Signed in through the API (the login screen is the other tests' part), then on settings.
    await apiLogin(page, email);
    await page.goto('/settings');
    for (const path of ['/login', '/register', '/forgot-password']) {
      await page.goto(path);
      await page.waitForURL((url) => url.pathname === '/settings');
    }
    await page
      .getByTestId('profile-last-login')
      .getByText(/\d{2}\/\d{2}\/\d{4}/)
      .waitFor();
    // The session ends behind the app's back: the next protected call sends the user to /login.
    await context.clearCookies();
    await page.getByTestId('otp-toggle').click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('link', { name: 'Register' }).waitFor();
    await context.close();
  });

  it('logs out after 60 idle minutes with the session-expired alert', async () => {
    const { email } = await activeAccount('id');
    const { context, page } = await openPage(browser);
    await page.clock.install();
    await loginWithEmailCode(page, email);
    const alert = new Promise<string>((resolve) => {
      page.once('dialog', (dialog) => {
        resolve(dialog.message());
        void dialog.accept();
      });
    });
    await page.clock.fastForward('59:00');
    expect(page.url()).toContain('/settings');
    await page.clock.fastForward('01:30');
    expect(await alert).toBe('Session expired, Please login again');
    await page.waitForURL((url) => url.pathname === '/login');
    const me = await page.request.get(barong('/resource/users/me'));
    expect(me.status()).toBe(401);
    await context.close();
  });
});
