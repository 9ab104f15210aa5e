import { randomInt } from 'node:crypto';
import { existsSync } from 'node:fs';
import pg from 'pg';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, onTestFailed } from 'vitest';
import { suiteApp } from './suite-app.ts';

/**
 * Debian's old headless shell first (package chromium-headless-shell: the same engine without the browser's own
 * window, profile and UI code; a fresh context's first load of /login to its form in 1.2 s here instead of 1.5 s), then the full
 * browser in its headless mode.
 */
const CANDIDATES = [
  process.env.CHROMIUM_PATH,
  '/usr/lib/chromium/chromium-headless-shell',
  '/usr/lib/chromium/chromium',
  '/usr/bin/chromium',
];

/**
 * Launches Debian's Chromium headless with the flags this closed network needs, plus `extraArgs` (e.g. a fake
 * camera for the card selfie).
 */
export async function launchBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  const executablePath = CANDIDATES.find((p): p is string => Boolean(p && existsSync(p)));
  if (!executablePath)
    throw new Error('Chromium not found: apt-get install -y chromium (or set CHROMIUM_PATH)');
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
      ...extraArgs,
    ],
  });
}

/**
 * An address of its own for each browser context's identity calls, as customers behind a proxy have (the suite's
 * app trusts the loopback proxy, TRUST_PROXY=loopback): the per-address limits (10 login codes a minute) then
 * count each simulated customer alone, not the whole suite as one address, whose logins waited the limit out (a
 * minute each) until tests with two logins ran past their time. From 198.18.0.0/15, kept for benchmarks.
 */
function clientAddress(): string {
  return `198.${18 + randomInt(2)}.${randomInt(256)}.${1 + randomInt(254)}`;
}

/**
 * A fresh browser context (its own storage and cookies) and a page on the app. The privacy policy counts as
 * accepted unless `privacyConsent: false` (a first visit, which shows the consent pop-up). `baseUrl`: another
 * server than the suite's (one a spec started itself).
 */
export async function openPage(
  browser: Browser,
  options: { privacyConsent?: boolean; baseUrl?: string } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: options.baseUrl ?? suiteApp().baseUrl,
    viewport: { width: 1280, height: 800 },
    // A browser with a window lets a page write the clipboard on a click; the headless shell asks for the permission.
    permissions: ['clipboard-write'],
  });
  // Identity calls (login, registration, codes) come from the context's own address; the developer tools
  // (outbox, faucet, mining) refuse any forwarded request, so everything else stays a plain loopback call.
  const address = clientAddress();
  await context.route('**/api/v2/barong/identity/**', (route) =>
    route.continue({ headers: { ...route.request().headers(), 'x-forwarded-for': address } }),
  );
  if (options.privacyConsent !== false)
    await context.addInitScript(() => localStorage.setItem('privacyConsent', 'accepted'));
  const page = await context.newPage();
  describeOnFailure(page);
  return { context, page };
}

/**
 * When the running test fails, prints what its page showed: the address, the focused element and the visible
 * text (toasts and field errors among it), so a failure in CI's log says what the user would have seen. Pages
 * opened outside a test (a file's beforeAll) are left out.
 */
function describeOnFailure(page: Page): void {
  try {
    onTestFailed(async () => {
      if (page.isClosed()) return;
      const seen = await page
        .evaluate(() => {
          const focused = document.activeElement;
          const focus = focused
            ? `<${focused.tagName.toLowerCase()} ${focused.getAttribute('data-testid') ?? focused.getAttribute('aria-label') ?? ''}>`
            : 'nothing';
          // biome-ignore lint/performance/useDomNodeTextContent: the text as shown, without hidden elements' text
          return `focus on ${focus}; text: ${document.body.innerText.replace(/\s+/g, ' ').slice(0, 1500)}`;
        })
        .catch((err: unknown) => `(the page could not be read: ${String(err)})`);
      console.error(`page ${page.url()} at the failure: ${seen}`);
    });
  } catch {
    // Not inside a test: nothing to report to.
  }
}

/** The Chromium and the pool on the started app's database that a spec file shares; both closed after it. */
export interface SpecResources {
  browser: Browser;
  db: pg.Pool;
}

/**
 * Starts Chromium (with `extraArgs`) and a one-connection pool on the app's database before the file's tests,
 * and closes both after them. Read `browser` and `db` inside tests: they are set once the file starts.
 */
export function browserAndDatabase(extraArgs: readonly string[] = []): SpecResources {
  const resources = {} as SpecResources;
  beforeAll(async () => {
    resources.browser = await launchBrowser(extraArgs);
    resources.db = new pg.Pool({ connectionString: suiteApp().databaseUrl, max: 1 });
  });
  afterAll(async () => {
    await resources.browser.close();
    await resources.db.end();
  });
  return resources;
}
