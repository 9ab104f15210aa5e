import { describe, expect, it } from 'vitest';
import { apiLogin, DEMO_PASSWORD } from '../support/accounts.ts';
import { browserAndDatabase, openPage } from '../support/browser.ts';

/**
 * The limit form's Time in force selector (issue 32, order entry): an IOC buy far below any ask goes to the API as
 * an ioc order (its answer says so), finds nothing to fill, and the screen says it was cancelled; nothing rests.
 */
const spec = browserAndDatabase();
const POLL = { timeout: 15_000 };

describe('time in force', () => {
  it('sends an IOC limit order from the form and shows that nothing filled it', async () => {
    const { context, page } = await openPage(spec.browser);
    await apiLogin(page, 'bob@example.com', DEMO_PASSWORD);
    await page.goto('/trade/ethbtc');
    const buy = page.getByTestId('buy-form');
    await buy.waitFor();

    // Keyboard-usable, labelled controls; Post only is off and not allowed with IOC.
    await page.getByLabel('Time in force').selectOption('ioc');
    await expect.poll(() => page.getByLabel('Post only').isDisabled(), POLL).toBe(true);
    await buy.getByLabel('Price').fill('0.001');
    await buy.getByLabel('Amount').fill('0.1');
    const answer = page.waitForResponse(
      (r) => r.url().endsWith('/api/v2/peatio/market/orders') && r.request().method() === 'POST',
    );
    await buy.getByRole('button', { name: 'Buy ETH' }).click();
    // The body goes encrypted: the answer's time in force is what the server was sent.
    const response = await answer;
    expect(response.status()).toBe(201);
    expect(await response.json()).toMatchObject({
      state: 'cancel',
      time_in_force: 'ioc',
      cancel_reason: 'unfilled',
    });
    await page.getByText('Order cancelled: there was nothing to fill it').last().waitFor(POLL);
    await context.close();
  });
});
