import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAccount, apiLogin, DEMO_PASSWORD, postFromPage } from '../support/accounts.ts';
import { browserAndDatabase, openPage } from '../support/browser.ts';
import { type LiveMarket, liveMarket } from '../support/live-market.ts';

const POLL = { timeout: 15_000, interval: 100 };
const DESKTOP = { width: 1440, height: 900 };
const resources = browserAndDatabase();
/** ethbtc made alive (support/live-market.ts); btcusdt gets one trade at 50000 so balances have a USDT value. */
let live: LiveMarket;
let alice: Page;
beforeAll(async () => {
  live = await liveMarket(resources.browser);
  const bob = await openPage(resources.browser);
  ({ page: alice } = await openPage(resources.browser));
  await apiLogin(bob.page, 'bob@example.com', DEMO_PASSWORD);
  await apiLogin(alice, 'alice@example.com', DEMO_PASSWORD);
  const order = async (page: Page, body: Record<string, string>) => {
    const placed = await postFromPage(page, '/api/v2/peatio/market/orders', body);
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  };
  await order(bob.page, {
    market: 'btcusdt',
    side: 'sell',
    ord_type: 'limit',
    price: '50000',
    volume: '0.01',
  });
  await order(alice, { market: 'btcusdt', side: 'buy', ord_type: 'market', volume: '0.01' });
  await bob.context.close();
  // A stop order among Alice's open orders: it waits for the last price to fall to 0.021.
  await order(alice, {
    market: 'ethbtc',
    side: 'sell',
    ord_type: 'stop_loss_limit',
    volume: '0.5',
    price: '0.02',
    stop_price: '0.021',
  });
  await alice.setViewportSize(DESKTOP);
  await alice.goto('/trade/ethbtc');
  await alice.getByTestId('order-book').waitFor();
});
afterAll(async () => {
  await alice.context().close();
  await live.close();
});

const marketOrder = (page: Page) =>
  page.locator('tr[data-market]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-market')));

describe('market list', () => {
  it('shows the 24-hour volume, sorts by each column, and keeps favourites first', async () => {
    const { email } = await activeAccount('screen');
    const { context, page } = await openPage(resources.browser);
    await apiLogin(page, email);
    await page.setViewportSize(DESKTOP);
    await page.goto('/trade/ethbtc');
    const ethbtc = page.locator('tr[data-market="ethbtc"]');
    await ethbtc.waitFor();
    // The 24-hour total in the quote currency, cut to two decimals: 3 ETH traded at 0.05000-0.05010 make 0.15 BTC
    // here, more when other spec files of the run traded ethbtc too.
    const amount = await page.evaluate(async () => {
      const tickers = (await (await fetch('/api/v2/peatio/public/markets/tickers')).json()) as Record<
        string,
        { ticker: { amount: string } }
      >;
      return tickers.ethbtc?.ticker.amount ?? '';
    });
    const [whole, fraction = ''] = amount.split('.');
    await expect
      .poll(() => ethbtc.getByTestId('market-volume').textContent(), POLL)
      .toBe(`${whole}.${fraction.padEnd(2, '0').slice(0, 2)}`);
    // Busiest first by default: ethbtc traded the most (0.15 BTC or more ≈ 7500 USDT against btcusdt's 500 USDT).
    await expect.poll(async () => (await marketOrder(page))[0], POLL).toBe('ethbtc');

    // Pair, by the keyboard: A→Z, then Z→A.
    await page.getByTestId('market-sort-pair').focus();
    await page.keyboard.press('Enter');
    expect(await marketOrder(page)).toEqual(['btcusdt', 'ethbtc', 'ethusdt', 'trxusdt']);
    expect(await page.locator('th[aria-sort="ascending"]').textContent()).toContain('Pair');
    await page.keyboard.press('Enter');
    expect(await marketOrder(page)).toEqual(['trxusdt', 'ethusdt', 'ethbtc', 'btcusdt']);

    // Price, highest first: btcusdt last traded at 50000.
    await page.getByTestId('market-sort-price').click();
    expect((await marketOrder(page))[0]).toBe('btcusdt');

    // A starred market comes first whatever the sort, and stays first when the sort turns round.
    await page
      .locator('tr[data-market="trxusdt"]')
      .getByRole('button', { name: 'Add to favourites' })
      .click();
    await expect.poll(async () => (await marketOrder(page))[0], POLL).toBe('trxusdt');
    await page.getByTestId('market-sort-price').click();
    expect((await marketOrder(page))[0]).toBe('trxusdt');
    expect((await marketOrder(page)).at(-1)).toBe('btcusdt');
    await page
      .locator('tr[data-market="trxusdt"]')
      .getByRole('button', { name: 'Remove from favourites' })
      .click();
    await context.close();
  });

  it('is as tall as its rows, with no empty space under them', async () => {
    const list = alice.getByTestId('market-list');
    const lastRow = list.locator('tr[data-market]').last();
    const [box, row] = await Promise.all([list.boundingBox(), lastRow.boundingBox()]);
    expect(box && row && box.y + box.height - (row.y + row.height)).toBeLessThan(24);
  });
});

describe('open orders and balances at 1440×900', () => {
  it('shows the open orders without scrolling, Cancel included, and a stop order with its trigger', async () => {
    const rows = alice.getByTestId('open-orders').locator('tbody tr');
    await expect.poll(() => rows.count(), POLL).toBeGreaterThanOrEqual(4);
    expect(await alice.evaluate(() => window.scrollY)).toBe(0);
    for (const index of [0, 3]) {
      const cancel = await rows.nth(index).getByRole('button', { name: 'Cancel' }).boundingBox();
      expect(cancel, `row ${index}`).not.toBeNull();
      expect(
        cancel && cancel.y + cancel.height <= DESKTOP.height && cancel.x + cancel.width <= DESKTOP.width,
      ).toBe(true);
    }
    // The table fits its panel: nothing, Cancel least of all, behind a sideways scroll.
    const fits = await alice.getByTestId('open-orders').evaluate((table) => {
      const panel = table.closest('.mantine-Paper-root');
      return !!panel && table.getBoundingClientRect().right <= panel.getBoundingClientRect().right + 1;
    });
    expect(fits).toBe(true);
    // The order form's slider marks stand apart in its narrow column.
    for (const side of ['buy', 'sell']) {
      const marks = await alice
        .getByTestId(`${side}-form`)
        .locator('.mantine-Slider-markLabel')
        .evaluateAll((els) => els.map((el) => el.getBoundingClientRect()).map((r) => [r.left, r.right]));
      expect(marks.length).toBe(5);
      marks.forEach((mark, i) => {
        if (i > 0) expect(mark[0], `${side} mark ${i}`).toBeGreaterThanOrEqual(marks[i - 1]?.[1] ?? 0);
      });
    }
    const stop = rows.filter({ hasText: 'Stop-limit' });
    expect(await stop.getByTestId('order-trigger').textContent()).toBe('≤ 0.021');
    expect(await rows.filter({ hasText: '0.03002' }).getByTestId('order-trigger').textContent()).toBe('—');
  });

  it('lists the balances with coin icons and their USDT value, figures right-aligned in tabular digits', async () => {
    await alice.getByRole('tab', { name: 'Balances' }).click();
    const table = alice.getByTestId('trading-balances');
    const usdt = table.getByTestId('trading-balance-usdt');
    await usdt.waitFor();
    for (const coin of ['btc', 'eth', 'usdt'])
      expect(
        await table.getByTestId(`trading-balance-${coin}`).locator(`img[data-coin-icon="${coin}"]`).count(),
      ).toBe(1);
    // USDT is worth itself; its total is exact (6 decimals), the value rounded to cents.
    const usdtTotal = (await usdt.locator('td').nth(1).textContent()) ?? '';
    expect(await usdt.getAttribute('data-usdt')).toBe(cents(usdtTotal, 1n, 0));
    // ETH goes through BTC: 0.05010 BTC × 50000 USDT = 2505 USDT per ETH.
    const eth = table.getByTestId('trading-balance-eth');
    const ethTotal = (await eth.locator('td').nth(1).textContent()) ?? '';
    await expect.poll(() => eth.getAttribute('data-usdt'), POLL).toBe(cents(ethTotal, 2505n, 0));
    expect(await eth.getByTestId('usdt-value').textContent()).toBe(cents(ethTotal, 2505n, 0));
    const style = await eth.getByTestId('usdt-value').evaluate((el) => {
      const s = getComputedStyle(el);
      return { align: s.textAlign, digits: s.fontVariantNumeric };
    });
    expect(style).toEqual({ align: 'right', digits: 'tabular-nums' });
    await alice.getByRole('tab', { name: /Open orders/ }).click();
  });
});

/** `amount` × `price` (an integer, shifted by `decimals`) rounded half up to cents, with bigint arithmetic. */
function cents(amount: string, price: bigint, decimals: number): string {
  const [whole = '0', fraction = ''] = amount.split('.');
  const scale = 18;
  const units = BigInt(whole + fraction.padEnd(scale, '0').slice(0, scale)) * price;
  const step = 10n ** BigInt(scale + decimals - 2);
  const rounded = (units + step / 2n) / step;
  const text = rounded.toString().padStart(3, '0');
  return `${text.slice(0, -2)}.${text.slice(-2)}`;
}

/**
 * The latest 5-minute ethbtc candle as the public API gives it (`[t, o, h, l, c, v]`, numbers as Peatio sends
 * them), written at the market's precisions (price 5, amount 3 decimals) as the readout shows them.
 */
async function latestCandle(page: Page) {
  const rows = await page.evaluate(async () => {
    const res = await fetch('/api/v2/peatio/public/markets/ethbtc/k-line?period=5&limit=1');
    return (await res.json()) as number[][];
  });
  const [, open = 0, high = 0, low = 0, , volume = 0] = rows.at(-1) ?? [];
  return { open: open.toFixed(5), high: high.toFixed(5), low: low.toFixed(5), volume: volume.toFixed(3) };
}

describe('chart', () => {
  it('has a volume pane and an OHLC and volume readout that follows the pointer', async () => {
    const chart = alice.getByTestId('price-chart');
    await expect.poll(() => chart.getAttribute('data-panes'), POLL).toBe('2');
    const readout = alice.getByTestId('candle-readout');
    // Not hovered: the latest candle, ending with this file's 30 trades of 0.1 ETH at 0.05000 then 0.05010. Other
    // spec files may have traded in the same 5 minutes, so its open and volume are read from the public k-line.
    await expect.poll(() => readout.getAttribute('data-close'), POLL).toBe('0.05010');
    const candle = await latestCandle(alice);
    expect(await readout.getAttribute('data-volume')).toBe(candle.volume);
    expect(await readout.textContent()).toContain(`O ${candle.open}`);
    // Sweep the pointer from the right until it is over the candle.
    const box = await chart.boundingBox();
    if (!box) throw new Error('no chart');
    let hovered = false;
    for (let x = box.x + box.width - 60; x > box.x && !hovered; x -= 3) {
      await alice.mouse.move(x, box.y + box.height / 3);
      hovered = (await readout.getAttribute('data-hovered')) === 'true';
    }
    expect(hovered).toBe(true);
    const text = (await readout.textContent()) ?? '';
    for (const part of [`H ${candle.high}`, `L ${candle.low}`, 'C 0.05010', `V ${candle.volume}`])
      expect(text).toContain(part);
    await alice.mouse.move(0, 0);
  });

  it('picks the candle size from the time frame', async () => {
    const asked = alice.waitForRequest((r) => r.url().includes('/k-line') && r.url().includes('time_from='));
    await alice.getByTestId('chart-time-frame').getByText('1d', { exact: true }).click();
    expect(new URL((await asked).url()).searchParams.get('period')).toBe('15');
    await expect.poll(() => alice.getByTestId('price-chart').getAttribute('data-period'), POLL).toBe('15m');
    await alice.getByTestId('chart-time-frame').getByText('1y', { exact: true }).click();
    await expect.poll(() => alice.getByTestId('price-chart').getAttribute('data-period'), POLL).toBe('3d');
    // A period chosen afterwards shows its latest candles.
    await alice.getByTestId('chart-period').getByText('5m', { exact: true }).click();
    await expect.poll(() => alice.getByTestId('price-chart').getAttribute('data-time-from'), POLL).toBeNull();
  });

  it('draws the depth of the book, cumulated on each side', async () => {
    await alice.getByRole('tab', { name: 'Depth' }).click();
    const depth = alice.getByTestId('depth-chart');
    await depth.waitFor();
    // Bids: Bob's 20 × 1 ETH and Alice's 3 × 0.5; asks: Bob's 20 × 2 less the 3 ETH bought.
    await expect.poll(() => depth.getAttribute('data-bid-total'), POLL).toBe('21.500');
    expect(await depth.getAttribute('data-ask-total')).toBe('37.000');
    expect(await depth.getAttribute('data-bid-levels')).toBe('23');
    await alice.getByRole('tab', { name: 'Candles' }).click();
    await alice.getByTestId('price-chart').waitFor();
  });
});
