import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, DEMO_PASSWORD, postFromPage } from '../support/accounts.ts';
import { browserAndDatabase, openPage } from '../support/browser.ts';
import { tabTo } from '../support/keyboard.ts';
import { type LiveMarket, liveMarket } from '../support/live-market.ts';

const POLL = { timeout: 15_000, interval: 100 };
const PHONE = { width: 390, height: 844 };
const resources = browserAndDatabase();
let live: LiveMarket;
let page: Page;
beforeAll(async () => {
  live = await liveMarket(resources.browser);
  ({ page } = await openPage(resources.browser));
  await page.setViewportSize(PHONE);
  await apiLogin(page, 'alice@example.com', DEMO_PASSWORD);
  const stop = await postFromPage(page, '/api/v2/peatio/market/orders', {
    market: 'ethbtc',
    side: 'sell',
    ord_type: 'stop_loss_limit',
    volume: '0.5',
    price: '0.02',
    stop_price: '0.021',
  });
  expect(stop.status, JSON.stringify(stop.body)).toBe(201);
  await page.goto('/trade/ethbtc');
  await page.getByTestId('phone-trading').waitFor();
});
afterAll(async () => {
  await page.context().close();
  await live.close();
});

/** Whether the page scrolls sideways (something wider than the screen). */
const pageScrollsSideways = () =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

/** Whether an element lies wholly within the screen's width. */
async function withinWidth(target: Locator): Promise<boolean> {
  const box = await target.boundingBox();
  return !!box && box.x >= 0 && box.x + box.width <= PHONE.width;
}

/** The slider's percentage labels of a form, left to right, do not overlap. */
async function marksApart(form: Locator): Promise<boolean> {
  const boxes = await form
    .locator('.mantine-Slider-markLabel')
    .evaluateAll((els) =>
      els.map((el) => el.getBoundingClientRect()).map((r) => ({ left: r.left, right: r.right })),
    );
  return boxes.length === 5 && boxes.every((b, i) => i === 0 || (boxes[i - 1]?.right ?? 0) <= b.left);
}

describe('the trading screen on a phone (390×844)', () => {
  it('opens on the chart, with the panels in tabs and nothing wider than the screen', async () => {
    const tabs = ['Chart', 'Book', 'Trades', 'Orders', 'Markets'];
    const ys = new Set<number>();
    for (const name of tabs) {
      const tab = page.getByRole('tab', { name });
      expect(await withinWidth(tab), name).toBe(true);
      ys.add(Math.round((await tab.boundingBox())?.y ?? -1));
    }
    // One row of tabs.
    expect(ys.size).toBe(1);
    expect(await page.getByRole('tab', { name: 'Chart' }).getAttribute('aria-selected')).toBe('true');
    // The market list waits in its tab instead of filling the first screen; the chart is on it.
    expect(await page.getByTestId('market-list').count()).toBe(0);
    const chart = await page.getByTestId('price-chart').boundingBox();
    expect(chart && chart.y + chart.height).toBeLessThan(PHONE.height);
    // The twelve periods and the time frames fit the width.
    expect(await withinWidth(page.getByTestId('chart-period'))).toBe(true);
    expect(await withinWidth(page.getByTestId('chart-time-frame'))).toBe(true);
    expect(await pageScrollsSideways()).toBe(false);
  });

  it('shows the orders with Cancel on screen, never behind a sideways scroll', async () => {
    await page.getByRole('tab', { name: 'Orders' }).click();
    const rows = page.getByTestId('open-orders').locator('tbody tr');
    await expect.poll(() => rows.count(), POLL).toBe(4);
    for (let i = 0; i < 4; i++)
      expect(await withinWidth(rows.nth(i).getByRole('button', { name: 'Cancel' })), `row ${i}`).toBe(true);
    expect(await rows.filter({ hasText: 'Stop-limit' }).getByTestId('order-trigger').textContent()).toBe(
      '≤ 0.021',
    );
    expect(await pageScrollsSideways()).toBe(false);
    await page.getByRole('tab', { name: 'Markets' }).click();
    await page.getByTestId('market-list').waitFor();
    expect(await withinWidth(page.getByTestId('market-list'))).toBe(true);
    expect(await pageScrollsSideways()).toBe(false);
  });

  it('opens the order form in a bottom sheet from Buy and Sell, one side at a time, its marks apart', async () => {
    await page.getByTestId('phone-buy').click();
    const sheet = page.getByTestId('order-sheet');
    await sheet.waitFor();
    const buy = page.getByTestId('buy-form');
    await buy.waitFor();
    expect(await page.getByTestId('sell-form').isVisible()).toBe(false);
    expect(await withinWidth(buy.getByRole('button', { name: 'Buy ETH' }))).toBe(true);
    expect(await withinWidth(page.getByTestId('order-type'))).toBe(true);
    expect(await marksApart(buy)).toBe(true);
    // Once it has slid up, the sheet ends at the bottom of the screen.
    const bottom = async () => {
      const box = await sheet.boundingBox();
      return box ? Math.round(box.y + box.height) : Number.POSITIVE_INFINITY;
    };
    await expect.poll(bottom, POLL).toBeLessThanOrEqual(PHONE.height);
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });

    await page.getByTestId('phone-sell').click();
    const sell = page.getByTestId('sell-form');
    await sell.waitFor();
    expect(await buy.isVisible()).toBe(false);
    expect(await marksApart(sell)).toBe(true);
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });
  });

  it('fills the sheet from a level picked in the book, on the side that level serves', async () => {
    await page.getByRole('tab', { name: 'Book' }).click();
    await page.locator('[data-testid="book-ask"][data-price="0.05010"]').click();
    const buyPrice = page.getByTestId('buy-form').getByLabel('Price', { exact: true });
    await expect.poll(() => buyPrice.inputValue(), POLL).toBe('0.05010');
    await page.keyboard.press('Escape');
    await page.getByTestId('order-sheet').waitFor({ state: 'detached' });
    await page.locator('[data-testid="book-bid"][data-price="0.04000"]').click();
    const sellPrice = page.getByTestId('sell-form').getByLabel('Price', { exact: true });
    await expect.poll(() => sellPrice.inputValue(), POLL).toBe('0.04000');
    await page.keyboard.press('Escape');
    await page.getByTestId('order-sheet').waitFor({ state: 'detached' });
  });

  it('works from the keyboard: Buy opens the sheet with the focus in it, Escape closes it', async () => {
    await tabTo(page, page.getByTestId('phone-buy'), { max: 120 });
    await page.keyboard.press('Enter');
    await page.getByTestId('order-sheet').waitFor();
    await expect
      .poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]'))), POLL)
      .toBe(true);
    await page.keyboard.press('Escape');
    await page.getByTestId('order-sheet').waitFor({ state: 'detached' });
  });
});
