import { formatUnits, parseUnits } from '@exchange/shared';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, postFromPage } from '../support/accounts.ts';
import { launchBrowser, openPage } from '../support/browser.ts';
import { settle } from '../support/settle.ts';

const PASSWORD = 'Demo-pass-2026!';
const POLL = { timeout: 15_000, interval: 100 };

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

/** Logs a demo user in through the API (email code from the dev outbox) and opens the ethbtc trading screen. */
async function trader(email: string): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page } = await openPage(browser);
  await apiLogin(page, email, PASSWORD);
  await page.goto('/trade/ethbtc');
  await page.getByTestId('order-book').waitFor();
  await page.getByTestId('price-chart').waitFor();
  // A marker that a reload would wipe: everything below must update live.
  await page.evaluate(() => {
    (window as unknown as { marker: number }).marker = 1;
  });
  return { context, page };
}

const noReload = (page: Page) => page.evaluate(() => (window as unknown as { marker?: number }).marker);
const ask = (page: Page, price: string) => page.locator(`[data-testid="book-ask"][data-price="${price}"]`);
const text = async (page: Page, id: string) => (await page.getByTestId(id).textContent()) ?? '';
/** The whole available balance (the screen cuts it at 8 characters, with a tooltip); '' while it loads. */
const available = async (page: Page, side: 'buy' | 'sell') =>
  (await page.getByTestId(`${side}-available`).getAttribute('data-value')) ?? '';

/**
 * `base` plus `delta` (decimal strings), exactly. Other spec files trade the demo users too, so balances are
 * checked against what they were when this test began, not against the seed's.
 */
function plus(base: string, delta: string): string {
  const units = (text: string) => {
    const parsed = parseUnits(text.replace(/^-/, ''), 18);
    if (!parsed.ok) throw new Error(`not an amount: ${text}`);
    return text.startsWith('-') ? -parsed.units : parsed.units;
  };
  return formatUnits(units(base) + units(delta), 18);
}

async function placeLimitSell(page: Page, price: string, amount: string) {
  const form = page.getByTestId('sell-form');
  await form.getByLabel('Price').fill(price);
  await form.getByLabel('Amount').fill(amount);
  await form.getByRole('button', { name: 'Sell ETH' }).click();
  await page.getByText('Order placed successfully').last().waitFor();
}

describe('trading screen', () => {
  it('matches a limit sell with a market buy live on both screens, then cancels all', async () => {
    const [alice, bob] = await Promise.all([trader('alice@example.com'), trader('bob@example.com')]);
    const a = alice.page;
    const b = bob.page;
    // What the balances were as the test began, once the screens have them (the form gives no value while they
    // load: a CI run once read a "0" shown before they arrived, and its check then missed by her whole balance).
    const before = async (page: Page, side: 'buy' | 'sell') => {
      await expect.poll(() => available(page, side), POLL).not.toBe('');
      return available(page, side);
    };
    const bobBtcBefore = await before(b, 'buy');
    const aliceBtcBefore = await before(a, 'buy');
    const aliceEthBefore = await before(a, 'sell');

    // Alice's limit sell shows in both order books and in her open orders.
    await placeLimitSell(a, '0.05', '1');
    for (const page of [a, b]) await ask(page, '0.05000').waitFor(POLL);
    expect(await ask(b, '0.05000').getAttribute('data-amount')).toBe('1.000');
    await expect.poll(() => a.getByTestId('open-orders').locator('tbody tr').count(), POLL).toBe(1);
    await expect.poll(() => available(a, 'sell'), POLL).toBe(plus(aliceEthBefore, '-1'));

    // Bob's market buy trades against it.
    await b.getByTestId('order-type').getByText('Market', { exact: true }).click();
    const buy = b.getByTestId('buy-form');
    expect(await buy.getByLabel('Price').count()).toBe(0);
    await buy.getByLabel('Amount').fill('0.4');
    await buy.getByRole('button', { name: 'Buy ETH' }).click();
    await b.getByText('Order placed successfully').last().waitFor();

    for (const page of [a, b]) {
      await expect.poll(() => ask(page, '0.05000').getAttribute('data-amount'), POLL).toBe('0.600');
      const trade = page.getByTestId('trade-row').filter({ hasText: '0.05000' }).filter({ hasText: '0.400' });
      await trade.first().waitFor(POLL);
      const chart = page.getByTestId('price-chart');
      await expect.poll(() => chart.getAttribute('data-last-close'), POLL).toBe('0.05');
      expect(Number(await chart.getAttribute('data-candles'))).toBeGreaterThan(0);
      await expect.poll(() => text(page, 'ticker-last'), POLL).toBe('0.05000');
    }
    // Balances moved without a reload: Bob paid 0.02 BTC, Alice received it less her maker fee.
    await expect.poll(() => available(b, 'buy'), POLL).not.toBe(bobBtcBefore);
    expect(await available(b, 'buy')).toBe(plus(bobBtcBefore, '-0.02'));
    await expect.poll(() => available(a, 'buy'), POLL).not.toBe(aliceBtcBefore);
    // 0.02 BTC less her maker fee (0.1 %).
    expect(await available(a, 'buy')).toBe(plus(aliceBtcBefore, '0.01998'));
    await expect.poll(() => a.getByTestId('open-orders').getByText('Partial').count(), POLL).toBe(1);

    // A second order, then Cancel All empties Alice's open orders and both books.
    await placeLimitSell(a, '0.06', '0.5');
    await ask(b, '0.06000').waitFor(POLL);
    await expect.poll(() => a.getByTestId('open-orders').locator('tbody tr').count(), POLL).toBe(2);
    await a.getByRole('button', { name: 'Cancel All' }).click();
    await a.getByText('Order cancelled successfully').last().waitFor();
    await expect.poll(() => a.getByTestId('open-orders').locator('tbody tr').count(), POLL).toBe(0);
    for (const page of [a, b]) await expect.poll(() => page.getByTestId('book-ask').count(), POLL).toBe(0);
    await expect.poll(() => available(a, 'sell'), POLL).toBe(plus(aliceEthBefore, '-0.4'));

    expect(await noReload(a)).toBe(1);
    expect(await noReload(b)).toBe(1);
    await Promise.all([alice.context.close(), bob.context.close()]);
  });

  it('shows Symbol not found for an unknown market and the order history page', async () => {
    const { context, page } = await trader('alice@example.com');
    await page.goto('/trade/nosuchpair');
    await page.getByText('Symbol not found').waitFor();
    await page.goto('/history/orders');
    await page.getByRole('heading', { name: 'Order History' }).waitFor();
    // Her newest orders and trade are the previous test's: the 0.06 sell and the partly filled 0.05 one.
    const orders = page.getByTestId('orders-history').locator('tbody tr');
    const newest = async () => `${await orders.nth(0).textContent()} | ${await orders.nth(1).textContent()}`;
    await expect.poll(newest, POLL).toContain('0.06');
    expect(await newest()).toContain('0.05');
    const trades = page.getByTestId('trade-history').locator('tbody tr');
    await expect.poll(() => trades.nth(0).textContent(), POLL).toContain('0.4');
    await context.close();
  });

  it('says a market buy that met only the own asks was cancelled, not placed', async () => {
    const { context, page } = await trader('alice@example.com');
    await placeLimitSell(page, '0.08', '0.1');
    await ask(page, '0.08000').waitFor(POLL);
    await page.getByTestId('order-type').getByText('Market', { exact: true }).click();
    const buy = page.getByTestId('buy-form');
    await buy.getByLabel('Amount').fill('0.05');
    await buy.getByRole('button', { name: 'Buy ETH' }).click();
    await page.getByText('Order cancelled: it would have traded with your own order').last().waitFor();
    await expect.poll(() => ask(page, '0.08000').getAttribute('data-amount'), POLL).toBe('0.100');
    await page.getByRole('button', { name: 'Cancel All' }).click();
    await page.getByText('Order cancelled successfully').last().waitFor();
    await expect.poll(() => page.getByTestId('book-ask').count(), POLL).toBe(0);
    await context.close();
  });
});

describe('trading screen for a visitor', () => {
  it('shows public market data and asks to log in, with no private call', async () => {
    const { context, page } = await openPage(browser);
    const privateCalls: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (/\/api\/v2\/peatio\/(account|market)\//.test(path)) privateCalls.push(path);
    });
    let publicFrames = 0;
    page.on('websocket', (socket) => {
      if (socket.url().includes('/private')) privateCalls.push(socket.url());
      else socket.on('framereceived', () => publicFrames++);
    });
    await page.goto('/');
    await page.locator('header').getByRole('link', { name: 'Trade', exact: true }).first().click();
    await page.waitForURL((url) => url.pathname === '/trade');
    await page.getByTestId('order-book').waitFor();
    // Every call the market's page makes has its answer before the checks below (a refused one would lead to
    // /login); its stream's frames are counted from here.
    publicFrames = 0;
    await settle(page, () => page.goto('/trade/ethbtc'));
    for (const id of ['order-book', 'price-chart', 'ticker-last']) await page.getByTestId(id).waitFor();
    await page.getByText('ETH/BTC').first().waitFor();
    const login = page.getByRole('link', { name: 'Log in to trade' });
    await login.waitFor();
    expect(await page.getByRole('button', { name: 'Buy ETH' }).count()).toBe(0);
    expect(await page.getByTestId('open-orders').count()).toBe(0);
    // The public stream is live (its subscription answered, the book's snapshot sent); nothing sends the visitor
    // to /login.
    await expect.poll(() => publicFrames, POLL).toBeGreaterThan(0);
    expect(new URL(page.url()).pathname).toBe('/trade/ethbtc');
    expect(privateCalls).toEqual([]);
    await login.click();
    await page.waitForURL((url) => url.pathname === '/login');
    await context.close();
  });
});

describe('chart time frames and open-order pages', () => {
  it('sets the chart range from a time frame button', async () => {
    const { context, page } = await openPage(browser);
    await page.goto('/trade/ethbtc');
    const frames = page.getByTestId('chart-time-frame');
    for (const frame of ['5y', '1y', '6m', '3m', '1m', '5d', '1d'])
      await frames.getByText(frame, { exact: true }).waitFor();
    const asked = page.waitForRequest((r) => r.url().includes('/k-line') && r.url().includes('time_from='));
    await frames.getByText('5d', { exact: true }).click();
    const from = Number(new URL((await asked).url()).searchParams.get('time_from'));
    const expected = Date.now() / 1000 - 5 * 86_400;
    expect(Math.abs(from - expected)).toBeLessThan(120);
    const chart = page.getByTestId('price-chart');
    await expect.poll(() => chart.getAttribute('data-time-from'), POLL).toBe(String(from));
    await context.close();
  });

  it('pages the open orders ten at a time', async () => {
    const { context, page } = await trader('alice@example.com');
    for (let i = 0; i < 11; i++) {
      const placed = await postFromPage(page, '/api/v2/peatio/market/orders', {
        market: 'ethbtc',
        side: 'sell',
        ord_type: 'limit',
        price: '0.9',
        volume: '0.01',
      });
      expect(placed.status).toBe(201);
    }
    const rows = page.getByTestId('open-orders').locator('tbody tr');
    await expect.poll(() => rows.count(), POLL).toBe(10);
    await page.getByText('Open orders (11)').waitFor(POLL);
    await page.getByRole('button', { name: '2', exact: true }).click();
    await expect.poll(() => rows.count(), POLL).toBe(1);
    await page.getByRole('button', { name: 'Cancel All' }).click();
    await page.getByText('Order cancelled successfully').last().waitFor();
    await expect.poll(() => rows.count(), POLL).toBe(0);
    await context.close();
  });
});
