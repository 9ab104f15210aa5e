import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from '../support/browser.ts';
import { captchaWidget, solveCaptcha } from '../support/captcha.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

describe('web shell', () => {
  it('starts dark, switches theme and keeps the choice across reloads', async () => {
    const { context, page } = await openPage(browser);
    await page.goto('/');
    const scheme = () => page.locator('html').getAttribute('data-mantine-color-scheme');
    expect(await scheme()).toBe('dark');
    await page.getByTestId('theme-toggle').click();
    expect(await scheme()).toBe('light');
    expect(await page.evaluate(() => document.documentElement.classList.contains('theme-transition'))).toBe(
      true,
    );
    await page.waitForFunction(() => !document.documentElement.classList.contains('theme-transition'));
    expect(await page.evaluate(() => localStorage.getItem('ThemeMode'))).toBe('light');
    await page.reload();
    expect(await scheme()).toBe('light');
    await context.close();
  });

  it('replaces the app with the offline message while offline and comes back', async () => {
    const { context, page } = await openPage(browser);
    await page.goto('/contact');
    await page.getByRole('heading', { name: 'Contact us' }).waitFor();
    await context.setOffline(true);
    await page.getByText('Whoops! Slow or no Internet connection. Please try again.').waitFor();
    expect(await page.getByRole('heading', { name: 'Contact us' }).count()).toBe(0);
    await context.setOffline(false);
    await page.getByRole('heading', { name: 'Contact us' }).waitFor();
    await context.close();
  });

  it('redirects unknown paths to the landing page', async () => {
    const { context, page } = await openPage(browser);
    await page.goto('/this/does/not/exist');
    await page.waitForURL((url) => url.pathname === '/');
    await context.close();
  });

  it('sends visitors on protected routes to /login', async () => {
    const { context, page } = await openPage(browser);
    for (const path of ['/settings', '/balance', '/history/orders', '/api-tokens']) {
      await page.goto(path);
      await page.waitForURL((url) => url.pathname === '/login');
    }
    await context.close();
  });

  it('shows the visitor header and a footer whose legal links open in a new tab', async () => {
    const { context, page } = await openPage(browser);
    await page.goto('/');
    const header = page.locator('header');
    for (const name of ['Contact', 'Login', 'Register'])
      await header.getByText(name, { exact: true }).first().waitFor();
    const footer = page.locator('footer');
    expect(await footer.getByText(String(new Date().getFullYear()), { exact: false }).count()).toBe(1);
    expect(await footer.getByRole('link', { name: 'Terms' }).getAttribute('target')).toBe('_blank');
    expect(await footer.getByRole('link', { name: 'Privacy' }).getAttribute('target')).toBe('_blank');
    await context.close();
  });
});

describe('contact form', () => {
  it('shows the spec messages for bad input and sends a good message with a toast', async () => {
    const { context, page } = await openPage(browser);
    await page.goto('/contact');
    await page.getByRole('button', { name: 'Send message' }).click();
    await page.getByText('Please enter your email').waitFor();
    expect(await page.getByText('This field is required').count()).toBe(3);

    await page.getByLabel('Email').fill('   ');
    await page.getByLabel('Name').fill('R2D2');
    await page.getByRole('button', { name: 'Send message' }).click();
    await page.getByText('whitespace not allowed').waitFor();
    await page.getByText('Number not allowed').waitFor();
    expect(await page.getByLabel('Name').getAttribute('maxlength')).toBe('30');

    await page.getByLabel('Email').fill('visitor@example.com');
    await page.getByLabel('Subject').fill('Card question');
    await page.getByLabel('Name').fill('Vera Visitor');
    await page.getByLabel('Message').fill('When does the card ship?');
    await solveCaptcha(page);
    await page.getByRole('button', { name: 'Send message' }).click();
    await page.getByText('Your message has been sent. We will reply by email.').waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe('');
    // A sent answer is spent: the widget starts over for the next message.
    await captchaWidget(page).getByText("I'm not a robot").waitFor();
    await context.close();
  });
});
