import { type Challenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, openPage } from '../support/browser.ts';

const PASSWORD = 'Demo-pass-2026!';
const POLL = { timeout: 15_000, interval: 100 };

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

const barong = (path: string) => `${inject('baseUrl')}/api/v2/barong${path}`;

/** A solved ALTCHA answer when the server asks for one (each works once), else undefined. */
async function captcha(): Promise<string | undefined> {
  const config = (await (await fetch(barong('/identity/configs'))).json()) as { captcha_type?: string };
  if (config.captcha_type !== 'altcha') return undefined;
  const challenge = (await (await fetch(barong('/identity/captcha/challenge'))).json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('could not solve the captcha challenge');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

async function latestCode(to: string): Promise<string> {
  const response = await fetch(barong(`/dev/outbox?to=${encodeURIComponent(to)}`));
  const [message] = (await response.json()) as { subject: string | null; body: string }[];
  const code = /\b(\d{5})\b/.exec(`${message?.subject ?? ''} ${message?.body ?? ''}`)?.[1];
  if (!code) throw new Error(`no code in the outbox for ${to}`);
  return code;
}

/** POSTs JSON from inside the page, so the session cookie lands in its browser context. */
function post(page: Page, path: string, body: unknown) {
  return page.evaluate(
    async ({ path, body }) => {
      const response = await fetch(path, {
        method: 'POST',
        credentials: 'include',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json().catch(() => null)) as unknown };
    },
    { path, body },
  );
}

/** Logs a demo user in through the API (email code from the dev outbox) and opens the ethbtc trading screen. */
async function trader(email: string): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page } = await openPage(browser);
  await page.goto('/');
  const sent = await post(page, '/api/v2/barong/identity/sessions/resent_otp', {
    session_type: 'email',
    email,
    password: PASSWORD,
    captcha_response: await captcha(),
  });
  expect(sent.status).toBe(201);
  const session = await post(page, '/api/v2/barong/identity/sessions', {
    email,
    password: PASSWORD,
    code: await latestCode(email),
    session_type: 'email',
    captcha_response: await captcha(),
  });
  expect(session.status).toBe(200);
  const csrf = (session.body as { csrf_token: string }).csrf_token;
  await page.evaluate((token) => localStorage.setItem('csrfToken', token), csrf);
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
/** The whole available balance (the screen cuts it at 8 characters, with a tooltip). */
const available = async (page: Page, side: 'buy' | 'sell') =>
  (await page.getByTestId(`${side}-available`).getAttribute('data-value')) ?? '';

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
    const bobBtcBefore = await available(b, 'buy');
    const aliceBtcBefore = await available(a, 'buy');

    // Alice's limit sell shows in both order books and in her open orders.
    await placeLimitSell(a, '0.05', '1');
    for (const page of [a, b]) await ask(page, '0.05000').waitFor(POLL);
    expect(await ask(b, '0.05000').getAttribute('data-amount')).toBe('1.000');
    await expect.poll(() => a.getByTestId('open-orders').locator('tbody tr').count(), POLL).toBe(1);
    await expect.poll(() => available(a, 'sell'), POLL).toBe('99');

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
    expect(await available(b, 'buy')).toBe('9.98');
    expect(await text(b, 'buy-available')).toBe('9.98 BTC');
    await expect.poll(() => available(a, 'buy'), POLL).not.toBe(aliceBtcBefore);
    expect(await available(a, 'buy')).toMatch(/^10\.01\d*$/);
    await expect.poll(() => a.getByTestId('open-orders').getByText('Partial').count(), POLL).toBe(1);

    // A second order, then Cancel All empties Alice's open orders and both books.
    await placeLimitSell(a, '0.06', '0.5');
    await ask(b, '0.06000').waitFor(POLL);
    await expect.poll(() => a.getByTestId('open-orders').locator('tbody tr').count(), POLL).toBe(2);
    await a.getByRole('button', { name: 'Cancel All' }).click();
    await a.getByText('Order cancelled successfully').last().waitFor();
    await expect.poll(() => a.getByTestId('open-orders').locator('tbody tr').count(), POLL).toBe(0);
    for (const page of [a, b]) await expect.poll(() => page.getByTestId('book-ask').count(), POLL).toBe(0);
    await expect.poll(() => available(a, 'sell'), POLL).toBe('99.6');

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
    await expect.poll(() => page.getByTestId('orders-history').locator('tbody tr').count(), POLL).toBe(2);
    await expect.poll(() => page.getByTestId('trade-history').locator('tbody tr').count(), POLL).toBe(1);
    await context.close();
  });
});
