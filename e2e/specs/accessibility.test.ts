import { appendFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, DEMO_PASSWORD } from '../support/accounts.ts';
import { axeViolations, describeViolations } from '../support/axe.ts';
import { launchBrowser, openPage } from '../support/browser.ts';
import { type LiveMarket, liveMarket } from '../support/live-market.ts';
import { type Screen, screensFor } from '../support/routes.ts';
import { settle } from '../support/settle.ts';

const THEMES = ['dark', 'light'] as const;

let browser: Browser;
/** ethbtc as it is with the demo running: full book, trades beyond the list's height, open orders. */
let live: LiveMarket;
beforeAll(async () => {
  browser = await launchBrowser();
  live = await liveMarket(browser);
});
afterAll(async () => {
  await live.close();
  await browser.close();
});

/**
 * Opens a screen in a theme and waits for its content (the theme is read from storage when the app starts). A
 * screen fed by the streams is checked with its live data: once its lists have filled, and again after an update
 * pushed while it is open (a list that starts to scroll only then, say).
 */
async function visit(page: Page, screen: Screen, theme: (typeof THEMES)[number]): Promise<void> {
  await page.evaluate((value) => localStorage.setItem('ThemeMode', value), theme);
  // Every request the screen made has its answer and nothing moves: no fixed half-second of quiet waited out.
  await settle(page, async () => {
    await page.goto(screen.path);
    await page.locator(screen.ready).first().waitFor({ timeout: 20_000 });
  });
  if (screen.live) {
    const { selector, count } = screen.live;
    await page
      .locator(selector)
      .nth(count - 1)
      .waitFor({ timeout: 20_000 });
    // The newest row comes first: a new trade pushed over the stream replaces it at the top.
    const newest = () => page.locator(selector).first().getAttribute('data-id');
    const before = await newest();
    await live.trade();
    await expect.poll(newest, { timeout: 20_000 }).not.toBe(before);
  }
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
        const found = await axeViolations(page);
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
    const found = await axeViolations(page);
    expect(found, describeViolations(found)).toEqual([]);
    await context.close();
  });
});
