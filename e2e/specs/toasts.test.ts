import { LIMITS } from '@exchange/shared';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiLogin, DEMO_PASSWORD } from '../support/accounts.ts';
import { browserAndDatabase, openPage } from '../support/browser.ts';

/**
 * Toasts show one at a time for 2 seconds at the top right (docs/trading.md#errors; issue 32 item 8): a second toast
 * replaces the first at once instead of stacking under it or waiting its turn.
 */
const spec = browserAndDatabase();

/** Samples the toasts on screen every 10 ms: when, and which (each toast element gets a number of its own). */
async function watchToasts(page: Page): Promise<void> {
  await page.evaluate(() => {
    const samples: { at: number; ids: number[] }[] = [];
    const ids = new WeakMap<Element, number>();
    let next = 1;
    (window as unknown as { toastSamples: typeof samples }).toastSamples = samples;
    setInterval(() => {
      const shown = Array.from(document.querySelectorAll('.mantine-Notification-root')).filter((el) => {
        const box = el.getBoundingClientRect();
        return box.width > 0 && box.height > 0 && Number(getComputedStyle(el).opacity) > 0;
      });
      for (const el of shown) if (!ids.has(el)) ids.set(el, next++);
      samples.push({ at: performance.now(), ids: shown.map((el) => ids.get(el) ?? 0) });
    }, 10);
  });
}

const samples = (page: Page) =>
  page.evaluate(() => (window as unknown as { toastSamples: { at: number; ids: number[] }[] }).toastSamples);

describe('toasts', () => {
  it('show one at a time, for 2 seconds, the newest replacing the one on screen', async () => {
    const { context, page } = await openPage(spec.browser);
    // The page's timers (each toast's 2 seconds, the sampling) run on a clock the test moves: it flows as usual
    // until paused below, then only as far as the test runs it, whatever the machine's load.
    await page.clock.install();
    await apiLogin(page, 'bob@example.com', DEMO_PASSWORD);
    await page.goto('/trade/ethbtc');
    const buy = page.getByTestId('buy-form');
    await buy.waitFor();
    // Bob has 10 BTC: a buy of 1000 ETH at 0.05 is refused by the server, each time with a toast.
    await buy.getByLabel('Price').fill('0.05');
    await buy.getByLabel('Amount').fill('1000');
    await watchToasts(page);
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
    const submit = buy.getByRole('button', { name: 'Buy ETH' });
    const toast = page.locator('.mantine-Notification-root');
    await submit.click();
    await page.getByText('Insufficient balance').first().waitFor();
    // The first toast for 0.7 s of the page's time, then the second refusal.
    await page.clock.runFor(700);
    await toast.evaluate((el) => el.setAttribute('data-e2e-first', ''));
    await submit.click();
    await page.locator('.mantine-Notification-root:not([data-e2e-first])').waitFor();
    // Long enough for the second to go too.
    await page.clock.runFor(LIMITS.toastDurationMs + 1500);
    const seen = await samples(page);

    // Never two on screen together, and none left at the end.
    expect(Math.max(...seen.map((s) => s.ids.length))).toBe(1);
    expect(seen.at(-1)?.ids).toEqual([]);
    // Each toast's time on screen: the first is cut short by the second, which stays its 2 seconds.
    const spans = new Map<number, { from: number; to: number }>();
    for (const sample of seen) {
      for (const id of sample.ids) {
        const span = spans.get(id);
        if (span) span.to = sample.at;
        else spans.set(id, { from: sample.at, to: sample.at });
      }
    }
    const [first, second] = [...spans.values()];
    expect(spans.size).toBe(2);
    if (!first || !second) throw new Error('two toasts expected');
    expect(first.to - first.from).toBeLessThan(1500);
    // The second appears as the first goes, not after the first's 2 seconds: the next sample (10 ms) shows it.
    expect(second.from - first.to).toBeLessThanOrEqual(20);
    // Its 2 seconds, give or take the 10 ms between samples.
    expect(second.to - second.from).toBeGreaterThan(LIMITS.toastDurationMs - 50);
    expect(second.to - second.from).toBeLessThan(LIMITS.toastDurationMs + 50);
    await context.close();
  });
});
