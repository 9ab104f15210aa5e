import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, DEMO_PASSWORD } from '../support/accounts.ts';
import { browserAndDatabase, openPage } from '../support/browser.ts';
import { tabTo } from '../support/keyboard.ts';
import { type LiveMarket, liveMarket } from '../support/live-market.ts';

const POLL = { timeout: 15_000, interval: 100 };
const resources = browserAndDatabase();
/**
 * ethbtc made alive (support/live-market.ts): Bob's asks from 0.05000 up by 0.00010 (2 ETH each; Alice's market
 * buys took 3 ETH from the bottom, so the best ask is 0.05010 with 1 ETH left), his bids from 0.04000 down by
 * 0.00010 (1 ETH each) and Alice's three bids at 0.03000-0.03002 (0.5 ETH each).
 */
let live: LiveMarket;
let page: Page;
beforeAll(async () => {
  live = await liveMarket(resources.browser);
  ({ page } = await openPage(resources.browser));
  await apiLogin(page, 'alice@example.com', DEMO_PASSWORD);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/trade/ethbtc');
  await page.locator('[data-testid="book-ask"][data-price="0.05010"]').waitFor(POLL);
});
afterAll(async () => {
  await page.context().close();
  await live.close();
});

const asks = () => page.getByTestId('book-ask');
const bids = () => page.getByTestId('book-bid');
const buyField = (label: string) => page.getByTestId('buy-form').getByLabel(label, { exact: true });
const sellField = (label: string) => page.getByTestId('sell-form').getByLabel(label, { exact: true });

describe('order book', () => {
  it('shows the mid price and spread between the best ask and the best bid', async () => {
    const spread = page.getByTestId('book-spread');
    await expect.poll(() => spread.getAttribute('data-mid'), POLL).toBe('0.04505');
    expect(await spread.getAttribute('data-spread')).toBe('0.01010');
    expect(await spread.textContent()).toContain('Spread 0.01010 (22.42 %)');
    // The row sits between the sides: the lowest ask above it, the highest bid below.
    const bestAsk = await asks().last().boundingBox();
    const bestBid = await bids().first().boundingBox();
    const row = await spread.boundingBox();
    expect(bestAsk && row && bestBid && bestAsk.y < row.y && row.y < bestBid.y).toBe(true);
    expect(await asks().last().getAttribute('data-price')).toBe('0.05010');
    expect(await bids().first().getAttribute('data-price')).toBe('0.04000');
  });

  it('groups levels by a multiple of the tick, adding their amounts exactly', async () => {
    await page.getByLabel('Group prices by').selectOption('0.001');
    // Asks go to the bucket above: 0.05010 (1) and 0.05020-0.05100 (9 × 2) make 0.05100.
    await expect.poll(() => asks().last().getAttribute('data-price'), POLL).toBe('0.05100');
    expect(await asks().last().getAttribute('data-amount')).toBe('19.000');
    expect(await asks().nth(-2).getAttribute('data-price')).toBe('0.05200');
    // 0.05110-0.05190: 9 × 2.
    expect(await asks().nth(-2).getAttribute('data-amount')).toBe('18.000');
    // Bids go to the bucket below: 0.04000 alone, 0.03900-0.03990 (10 × 1), …, Alice's three at 0.03000.
    expect(await bids().first().getAttribute('data-price')).toBe('0.04000');
    expect(await bids().first().getAttribute('data-amount')).toBe('1.000');
    expect(await bids().nth(1).getAttribute('data-amount')).toBe('10.000');
    const alices = page.locator('[data-testid="book-bid"][data-price="0.03000"]');
    expect(await alices.getAttribute('data-amount')).toBe('1.500');
    // The spread is the book's own, whatever the grouping.
    expect(await page.getByTestId('book-spread').getAttribute('data-mid')).toBe('0.04505');
    await page.getByLabel('Group prices by').selectOption('0.00001');
    await expect.poll(() => asks().last().getAttribute('data-price'), POLL).toBe('0.05010');
  });

  it('fills the order form from a clicked level, and with Shift the amount up to it', async () => {
    await page.locator('[data-testid="book-ask"][data-price="0.05010"]').click();
    await expect.poll(() => buyField('Price').inputValue(), POLL).toBe('0.05010');
    expect(await sellField('Price').inputValue()).toBe('0.05010');
    expect(await buyField('Amount').inputValue()).toBe('');

    // 0.05010 (1) + 0.05020 (2) + 0.05030 (2).
    await page.locator('[data-testid="book-ask"][data-price="0.05030"]').click({ modifiers: ['Shift'] });
    await expect.poll(() => buyField('Price').inputValue(), POLL).toBe('0.05030');
    expect(await buyField('Amount').inputValue()).toBe('5.000');

    await page.locator('[data-testid="book-bid"][data-price="0.03990"]').click({ modifiers: ['Shift'] });
    await expect.poll(() => sellField('Price').inputValue(), POLL).toBe('0.03990');
    expect(await sellField('Amount').inputValue()).toBe('2.000');
  });

  it('is one stop for the keyboard: arrows move between levels, Enter picks, Shift+Enter with the amount', async () => {
    const levels = page.getByTestId('order-book').getByRole('button');
    // One level is in the tab order; the grouping selector comes just before it.
    await tabTo(page, page.getByLabel('Group prices by'), { max: 200 });
    await page.keyboard.press('Tab');
    // The level last used keeps the book's place in the tab order.
    const stop = page.getByTestId('order-book').locator('button[tabindex="0"]');
    expect(await stop.count()).toBe(1);
    await expect.poll(() => stop.evaluate((el) => el === document.activeElement), POLL).toBe(true);
    // Eight levels a side on a desktop.
    expect(await levels.count()).toBe(16);

    // From the top ask down to the best ask, then one more down to the best bid.
    // End: the last bid shown (8 levels from 0.04000).
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await expect.poll(() => buyField('Price').inputValue(), POLL).toBe('0.03930');
    await page.keyboard.press('Home');
    for (let i = 0; i < 7; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Shift+Enter');
    await expect.poll(() => buyField('Price').inputValue(), POLL).toBe('0.05010');
    expect(await buyField('Amount').inputValue()).toBe('1.000');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => sellField('Price').inputValue(), POLL).toBe('0.04000');
  });
});
