import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAccount, apiLogin } from '../support/accounts.ts';
import { launchBrowser, openPage } from '../support/browser.ts';

const POLL = { timeout: 15_000, interval: 100 };

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

const row = (page: Page, market: string) => page.locator(`tr[data-market="${market}"]`);
const marketRows = (page: Page) => page.locator('tr[data-market]');
const stored = (page: Page) => page.evaluate(() => localStorage.getItem('favMarketsId'));
const serverList = (page: Page) =>
  page.evaluate(
    async () => (await fetch('/api/v2/peatio/account/fav_market/list')).json() as Promise<unknown>,
  );

async function openTrading(page: Page) {
  await page.goto('/trade/ethbtc');
  await row(page, 'btcusdt').waitFor();
}

describe('favourite markets on the trading screen', () => {
  it('keeps a starred market across a reload and on another device, and filters by favourites', async () => {
    const { email } = await activeAccount('fav');
    const { context, page } = await openPage(browser);
    await apiLogin(page, email);
    await openTrading(page);
    expect(await marketRows(page).count()).toBe(4);

    await row(page, 'btcusdt').getByRole('button', { name: 'Add to favourites' }).click();
    await row(page, 'btcusdt').getByRole('button', { name: 'Remove from favourites' }).waitFor(POLL);
    await expect.poll(() => serverList(page), POLL).toEqual(['btcusdt']);
    expect(JSON.parse((await stored(page)) ?? 'null')).toEqual(['btcusdt']);

    await page.reload();
    await row(page, 'btcusdt').getByRole('button', { name: 'Remove from favourites' }).waitFor(POLL);
    expect(await row(page, 'ethbtc').getByRole('button', { name: 'Add to favourites' }).count()).toBe(1);

    // The favourites filter shows only the starred market, and everything again when switched off.
    const filter = page.getByRole('button', { name: 'Show favourites only' });
    await filter.click();
    await expect.poll(() => marketRows(page).count(), POLL).toBe(1);
    expect(await row(page, 'btcusdt').count()).toBe(1);
    await filter.click();
    await expect.poll(() => marketRows(page).count(), POLL).toBe(4);

    // A fresh browser (nothing stored locally) takes the list from the account.
    const other = await openPage(browser);
    await apiLogin(other.page, email);
    await openTrading(other.page);
    await row(other.page, 'btcusdt').getByRole('button', { name: 'Remove from favourites' }).waitFor(POLL);
    await expect
      .poll(async () => JSON.parse((await stored(other.page)) ?? 'null'), POLL)
      .toEqual(['btcusdt']);

    // Unstarring there reaches the account too.
    await row(other.page, 'btcusdt').getByRole('button', { name: 'Remove from favourites' }).click();
    await expect.poll(() => serverList(other.page), POLL).toEqual([]);
    await Promise.all([context.close(), other.context.close()]);
  });
});

describe('order form messages', () => {
  it('shows refused input under its field, and a server refusal as a toast', async () => {
    const { email } = await activeAccount('form');
    const { context, page } = await openPage(browser);
    await apiLogin(page, email);
    await page.goto('/trade/ethbtc');
    const buy = page.getByTestId('buy-form');
    await buy.waitFor();
    const toasts = page.locator('.mantine-Notification-root');

    await buy.getByLabel('Price').fill('0.05');
    await buy.getByLabel('Amount').fill('0.0001');
    await buy.getByRole('button', { name: 'Buy ETH' }).click();
    await buy.getByText('Decimal in amount field should be less than or equal to 3').waitFor();
    await buy.getByLabel('Price').fill('0.050001');
    await buy.getByRole('button', { name: 'Buy ETH' }).click();
    await buy.getByText('Decimal in price field should be less than or equal to 5').waitFor();
    expect(await toasts.count()).toBe(0);

    // Stop-market: a stop price and an amount, no price field.
    await page.getByTestId('order-type').getByText('Stop-market', { exact: true }).click();
    expect(await buy.getByLabel('Price', { exact: true }).count()).toBe(0);
    await buy.getByLabel('Amount').fill('');
    await buy.getByRole('button', { name: 'Buy ETH' }).click();
    await buy.getByText('Amount must be greater than 0.001').waitFor();
    await buy.getByLabel('Amount').fill('1');
    await buy.getByRole('button', { name: 'Buy ETH' }).click();
    await buy.getByText('Please enter a stop price').waitFor();
    expect(await toasts.count()).toBe(0);

    // Valid input reaches the server, whose refusal (a new account holds no BTC) is a toast.
    await buy.getByLabel('Stop price').fill('0.05');
    await buy.getByRole('button', { name: 'Buy ETH' }).click();
    await page.getByText('Insufficient balance').waitFor(POLL);
    expect(await buy.locator('[aria-invalid="true"]').count()).toBe(0);
    await context.close();
  });
});
