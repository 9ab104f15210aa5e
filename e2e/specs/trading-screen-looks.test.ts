import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, DEMO_PASSWORD, postFromPage } from '../support/accounts.ts';
import { axeViolations, blocking, describeViolations } from '../support/axe.ts';
import { browserAndDatabase, openPage } from '../support/browser.ts';
import { type LiveMarket, liveMarket } from '../support/live-market.ts';
import { settle } from '../support/settle.ts';

/** Where the screenshots go (SCREENS_OUT, else the system's temporary folder): never into the repository. */
const SCREENS_OUT = process.env.SCREENS_OUT ?? path.join(tmpdir(), 'exchange-screens');
const POLL = { timeout: 20_000, interval: 100 };
const THEMES = ['light', 'dark'] as const;
const SIZES = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const resources = browserAndDatabase();
let live: LiveMarket;
let page: Page;
beforeAll(async () => {
  mkdirSync(SCREENS_OUT, { recursive: true });
  live = await liveMarket(resources.browser);
  ({ page } = await openPage(resources.browser));
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await apiLogin(page, 'alice@example.com', DEMO_PASSWORD);
  // A stop order among Alice's open orders, to show its trigger.
  const stop = await postFromPage(page, '/api/v2/peatio/market/orders', {
    market: 'ethbtc',
    side: 'sell',
    ord_type: 'stop_loss_limit',
    volume: '0.5',
    price: '0.02',
    stop_price: '0.021',
  });
  expect(stop.status, JSON.stringify(stop.body)).toBe(201);
});
afterAll(async () => {
  await page.context().close();
  await live.close();
});

/** Opens ethbtc at a size in a theme and waits for its live content. */
async function visit(size: (typeof SIZES)[number], theme: (typeof THEMES)[number]): Promise<void> {
  await page.setViewportSize({ width: size.width, height: size.height });
  await page.evaluate((value) => localStorage.setItem('ThemeMode', value), theme);
  // Every request the screen made has its answer and nothing moves: no fixed half-second of quiet waited out.
  await settle(page, async () => {
    await page.goto('/trade/ethbtc');
    await page.getByTestId('price-chart').waitFor(POLL);
  });
  await expect.poll(() => page.locator('html').getAttribute('data-mantine-color-scheme'), POLL).toBe(theme);
}

describe('the trading screen at 1440×900 and 390×844, light and dark', () => {
  for (const size of SIZES) {
    for (const theme of THEMES) {
      it(`${size.name} ${theme}: axe clean, screenshot saved`, async () => {
        await visit(size, theme);
        if (size.name === 'desktop')
          await page.getByTestId('open-orders').locator('tbody tr').first().waitFor(POLL);
        else await page.getByTestId('candle-readout').waitFor(POLL);
        const found = blocking(await axeViolations(page));
        expect(found, describeViolations(found)).toEqual([]);
        await page.screenshot({ path: `${SCREENS_OUT}/trade-${size.width}x${size.height}-${theme}.png` });
      });
    }
  }

  it('desktop: the Balances tab and the depth chart are axe clean, with screenshots', async () => {
    await visit(SIZES[0], 'dark');
    await page.getByRole('tab', { name: 'Balances' }).click();
    await page.getByTestId('trading-balance-usdt').waitFor(POLL);
    await settle(page, () => page.getByRole('tab', { name: 'Depth' }).click());
    await page.getByTestId('depth-chart').waitFor(POLL);
    const found = blocking(await axeViolations(page));
    expect(found, describeViolations(found)).toEqual([]);
    await page.screenshot({ path: `${SCREENS_OUT}/trade-1440x900-dark-balances-depth.png` });
  });

  it('phone: each tab and the order sheet are axe clean, with screenshots', async () => {
    await visit(SIZES[1], 'dark');
    for (const tab of ['Book', 'Trades', 'Orders', 'Markets']) {
      await settle(page, () => page.getByRole('tab', { name: tab }).click());
      const found = blocking(await axeViolations(page));
      expect(found, `${tab}\n${describeViolations(found)}`).toEqual([]);
      await page.screenshot({ path: `${SCREENS_OUT}/trade-390x844-dark-${tab.toLowerCase()}.png` });
    }
    await settle(page, () => page.getByTestId('phone-buy').click());
    await page.getByTestId('order-sheet').waitFor(POLL);
    const found = blocking(await axeViolations(page));
    expect(found, describeViolations(found)).toEqual([]);
    await page.screenshot({ path: `${SCREENS_OUT}/trade-390x844-dark-sheet.png` });
  });
});
