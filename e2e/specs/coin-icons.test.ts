import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiLogin, DEMO_PASSWORD } from '../support/accounts.ts';
import { browserAndDatabase, openPage } from '../support/browser.ts';

/**
 * Coin icons by ticker (docs/wallet.md#constants; issue 32 item 6): served by the app, and shown in the balances, the coin
 * selectors, the market list and the swap form, each loaded (not a broken image).
 */
const spec = browserAndDatabase();
const POLL = { timeout: 20_000 };

/** The icons of `ticker` inside `scope` that the browser loaded. */
const loadedIcons = (scope: Locator | Page, ticker: string) =>
  scope
    .locator(`img[data-coin-icon="${ticker}"]`)
    .evaluateAll(
      (imgs) =>
        imgs.filter((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0)
          .length,
    );

describe('coin icons', () => {
  it('are served as SVG by the app, and shown in balances, selectors, markets and swap', async () => {
    const { context, page } = await openPage(spec.browser);
    for (const id of ['btc', 'eth', 'usdt', 'trx', 'eur']) {
      const res = await page.request.get(`/icons/coins/${id}.svg`);
      expect(res.status(), id).toBe(200);
      expect(res.headers()['content-type']).toContain('image/svg+xml');
      expect((await res.text()).startsWith('<svg')).toBe(true);
    }
    const currencies = (await (await page.request.get('/api/v2/peatio/public/currencies')).json()) as {
      id: string;
      icon_url: string | null;
    }[];
    expect(currencies.find((c) => c.id === 'btc')?.icon_url).toBe('/icons/coins/btc.svg');

    await apiLogin(page, 'alice@example.com', DEMO_PASSWORD);
    await page.goto('/balance');
    await page.getByTestId('balance-btc').waitFor();
    for (const id of ['btc', 'eth', 'usdt', 'trx', 'eur'])
      await expect.poll(() => loadedIcons(page.getByTestId(`balance-${id}`), id), POLL).toBe(1);

    // The coin selector: the chosen coin's icon in the field, every coin's in the list.
    await page.goto('/deposit_withdraw');
    await expect.poll(() => page.getByTestId('dw-coin').inputValue(), POLL).toMatch(/^TRX/);
    await expect.poll(() => loadedIcons(page, 'trx'), POLL).toBeGreaterThanOrEqual(1);
    await page.getByTestId('dw-coin').click();
    const list = page.getByRole('listbox');
    await expect.poll(() => loadedIcons(list, 'btc'), POLL).toBe(1);
    await expect.poll(() => loadedIcons(list, 'usdt'), POLL).toBe(1);
    await page.keyboard.press('Escape');

    // The market list: each market with its base coin's icon.
    await page.goto('/trade/ethbtc');
    const market = (id: string) => page.locator(`tr[data-market="${id}"]`);
    await market('btcusdt').waitFor();
    await expect.poll(() => loadedIcons(market('btcusdt'), 'btc'), POLL).toBe(1);
    await expect.poll(() => loadedIcons(market('trxusdt'), 'trx'), POLL).toBe(1);

    // The swap form's coin selectors.
    await page.goto('/swap');
    await page.getByTestId('swap-from').waitFor();
    await expect.poll(() => loadedIcons(page, 'usdt'), POLL).toBeGreaterThanOrEqual(1);
    await expect.poll(() => loadedIcons(page, 'btc'), POLL).toBeGreaterThanOrEqual(1);
    await context.close();
  });
});
