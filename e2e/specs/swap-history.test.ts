import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiLogin, DEMO_PASSWORD, postFromPage } from '../support/accounts.ts';
import { browserAndDatabase, openPage } from '../support/browser.ts';
import { getFromPage } from '../support/wallet.ts';

/**
 * Swap History's You Get is the total rounded to the coin's precision, shown whole, with the exact value on
 * hover (docs/wallet.md#screens; issue 32 item 7), not cut at 8 characters as the balance amounts are.
 */
const spec = browserAndDatabase();
const POLL = { timeout: 20_000 };

async function choose(page: Page, testId: string, option: string): Promise<void> {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('swap history', () => {
  it('shows You Get whole at the coin precision, and the exact value on hover', async () => {
    // Bob bids for TRX at 0.1234 USDT: Alice's swap of 97.3 TRX gets 12.00682 USDT less the swap fee (0.2 %): 11.982806.
    const bob = await openPage(spec.browser);
    await apiLogin(bob.page, 'bob@example.com', DEMO_PASSWORD);
    const bid = await postFromPage(bob.page, '/api/v2/peatio/market/orders', {
      market: 'trxusdt',
      side: 'buy',
      ord_type: 'limit',
      volume: '100',
      price: '0.1234',
    });
    expect(bid.status).toBe(201);

    const { context, page } = await openPage(spec.browser);
    await apiLogin(page, 'alice@example.com', DEMO_PASSWORD);
    await page.goto('/swap');
    await choose(page, 'swap-from', 'TRX');
    await choose(page, 'swap-to', 'USDT');
    await page.getByTestId('swap-amount').fill('97.3');
    await page.getByTestId('swap-quote').waitFor();
    await page.getByTestId('swap-submit').click();
    await page.getByText('Swap completed successfully').waitFor();
    const [swap] = await getFromPage<{ total: string; currency: string }[]>(
      page,
      '/api/v2/peatio/account/swaps?limit=1',
    );
    expect(swap?.currency).toBe('usdt');
    const total = swap?.total ?? '';
    // Longer than 8 characters: the case the balance amounts would cut.
    expect(total.length).toBeGreaterThan(8);

    await page.getByTestId('tab-swap-history').click();
    const cell = page.getByTestId('swap-you-get-cell').first();
    await expect.poll(() => cell.getAttribute('data-value'), POLL).toBe(total);
    // USDT has 6 decimals: the total (already at that precision) is shown whole, without an ellipsis.
    expect(await cell.textContent()).toBe(total);
    await cell.hover();
    await expect.poll(() => page.getByRole('tooltip').textContent(), POLL).toBe(total);

    await postFromPage(bob.page, '/api/v2/peatio/market/orders/cancel', {});
    await bob.context.close();
    await context.close();
  });
});
