import { appendFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, DEMO_PASSWORD } from '../support/accounts.ts';
import { axeViolations, blocking, describeViolations } from '../support/axe.ts';
import { launchBrowser, openPage } from '../support/browser.ts';
import { type Screen, screensFor } from '../support/routes.ts';

const THEMES = ['dark', 'light'] as const;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

/** Opens a screen in a theme and waits for its content (the theme is read from storage when the app starts). */
async function visit(page: Page, screen: Screen, theme: (typeof THEMES)[number]): Promise<void> {
  await page.evaluate((value) => localStorage.setItem('ThemeMode', value), theme);
  await page.goto(screen.path);
  await page.locator(screen.ready).first().waitFor({ timeout: 20_000 });
  await page.waitForLoadState('networkidle');
  expect(await page.locator('html').getAttribute('data-mantine-color-scheme')).toBe(theme);
}

describe.each([
  { who: 'a visitor', signedIn: false },
  { who: 'a signed-in user', signedIn: true },
])('WCAG 2.1 AA (axe-core) for $who', ({ signedIn }) => {
  let page: Page;
  beforeAll(async () => {
    // One page for every screen: reduced motion, so no transition is caught half-way.
    ({ page } = await openPage(browser));
    await page.emulateMedia({ reducedMotion: 'reduce' });
    if (signedIn) await apiLogin(page, 'alice@example.com', DEMO_PASSWORD);
    else await page.goto('/');
  });
  afterAll(() => page.context().close());

  for (const screen of screensFor(signedIn)) {
    for (const theme of THEMES) {
      it(`${screen.path} (${theme})`, async () => {
        await visit(page, screen, theme);
        const found = blocking(await axeViolations(page));
        if (process.env.A11Y_REPORT)
          appendFileSync(
            process.env.A11Y_REPORT,
            `${JSON.stringify({ path: screen.path, theme, signedIn, found })}\n`,
          );
        expect(found, describeViolations(found)).toEqual([]);
      });
    }
  }
});

describe('WCAG 2.1 AA (axe-core) with a dialog open', () => {
  it.each(THEMES)('the privacy consent of a first visit (%s)', async (theme) => {
    const { context, page } = await openPage(browser, { privacyConsent: false });
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.addInitScript((value) => localStorage.setItem('ThemeMode', value), theme);
    await page.goto('/');
    await page.getByTestId('privacy-consent-accept').waitFor();
    // The dialog takes the focus (it has no other way out than its button).
    await expect
      .poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]'))))
      .toBe(true);
    const found = blocking(await axeViolations(page));
    expect(found, describeViolations(found)).toEqual([]);
    await context.close();
  });
});
