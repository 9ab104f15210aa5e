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
 * Goes to a screen inside the loaded app, as a link would (a history entry the router follows). What the previous
 * screen showed is marked first, so that it is never taken for the new screen's content; a screen whose content is
 * the previous one's own elements (two routes of one page) never shows new ones, and is loaded instead (false).
 */
async function followLink(page: Page, screen: Screen): Promise<boolean> {
  if ((await page.evaluate(() => location.pathname + location.search)) === screen.path) {
    await page.locator(screen.ready).first().waitFor({ timeout: 20_000 });
    return true;
  }
  await page.locator(screen.ready).evaluateAll((left) => {
    for (const element of left) element.setAttribute('data-e2e-left', '');
  });
  await page.evaluate((path) => {
    history.pushState(null, '', path);
    dispatchEvent(new PopStateEvent('popstate'));
  }, screen.path);
  const fresh = page.locator(screen.ready).and(page.locator(':not([data-e2e-left])')).first();
  return fresh.waitFor({ timeout: 3_000 }).then(
    () => true,
    () => false,
  );
}

/** The theme the loaded app shows, or null before the app has loaded. */
function shownTheme(page: Page): Promise<string | null> {
  return page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'));
}

/**
 * Opens a screen in a theme and waits for its content. The theme is read from storage when the app starts, so the
 * first screen of a theme loads the app; the others are reached inside the app when they can be (see
 * {@link followLink}), which spares a load of the whole app per screen: about a second on a 2-core machine, for
 * each of the hundred checks. A screen fed by the streams is checked with its live data: once its lists have
 * filled, and again after an update pushed while it is open (a list that starts to scroll only then, say).
 */
async function visit(page: Page, screen: Screen, theme: (typeof THEMES)[number]): Promise<void> {
  const loaded = (await shownTheme(page)) === theme;
  // Every request the screen made has its answer and nothing moves: no fixed half-second of quiet waited out.
  await settle(page, async () => {
    if (loaded && (await followLink(page, screen))) return;
    await page.evaluate((value) => localStorage.setItem('ThemeMode', value), theme);
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
  expect(await shownTheme(page)).toBe(theme);
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

  // Theme by theme: the app loads once per theme (visit).
  for (const theme of THEMES) {
    for (const screen of screensFor(signedIn)) {
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
