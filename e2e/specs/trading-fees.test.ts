import { describe, expect, it } from 'vitest';
import { apiLogin, DEMO_PASSWORD } from '../support/accounts.ts';
import { browserAndDatabase, openPage } from '../support/browser.ts';

/**
 * The order form previews the fee that will be charged (issue 32 item 3): the taker rate for an order that crosses
 * (a market buy of 0.0123 ETH pays 0.0000246 ETH at 0.2 %), the maker rate for one that rests, and the user's
 * rates are on screen.
 */
const spec = browserAndDatabase();
const POLL = { timeout: 15_000 };

describe('fee preview', () => {
  it('shows the taker fee of a market order, the maker fee of a resting limit order, and the rates', async () => {
    const { context, page } = await openPage(spec.browser);
    await apiLogin(page, 'bob@example.com', DEMO_PASSWORD);
    await page.goto('/trade/ethbtc');
    await page.getByTestId('buy-form').waitFor();
    await expect
      .poll(() => page.getByTestId('fee-rates').textContent(), POLL)
      .toBe('Your fees: maker 0.1% · taker 0.2%');

    const buy = page.getByTestId('buy-form');
    // A limit buy far below any ask rests in the book: maker.
    await buy.getByLabel('Price').fill('0.01');
    await buy.getByLabel('Amount').fill('0.0123');
    await expect
      .poll(() => page.getByTestId('buy-fee').textContent(), POLL)
      .toBe('0.0000123 ETH (maker 0.1%)');
    // A market buy takes: taker, twice as much.
    await page.getByTestId('order-type').getByText('Market', { exact: true }).click();
    await buy.getByLabel('Amount').fill('0.0123');
    await expect
      .poll(() => page.getByTestId('buy-fee').textContent(), POLL)
      .toBe('0.0000246 ETH (taker 0.2%)');
    await context.close();
  });
});
