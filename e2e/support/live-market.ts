import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { apiLogin, DEMO_PASSWORD, postFromPage } from './accounts.ts';
import { openPage } from './browser.ts';

/** Trades the live market makes on ethbtc before the screens are opened: more than fit its list unscrolled. */
export const LIVE_TRADES = 30;
/** Price levels Bob quotes on each side: more than the order book shows. */
const LIVE_LEVELS = 20;

/** A market made alive for a spec file: one more trade on demand, and the cleanup. */
export interface LiveMarket {
  /** Alice buys from Bob once more: a trade that reaches open screens over the streams. */
  trade(): Promise<void>;
  /** Cancels every order left, so that other spec files find the books empty again. */
  close(): Promise<void>;
}

/**
 * Makes ethbtc look as it does with the demo running (the e2e app starts with empty books): Bob quotes
 * {@link LIVE_LEVELS} asks and bids, Alice trades {@link LIVE_TRADES} times against his asks and rests a few bids
 * of her own, so the book, the recent trades and the open orders fill up.
 */
export async function liveMarket(browser: Browser): Promise<LiveMarket> {
  const bob = await openPage(browser);
  const alice = await openPage(browser);
  await apiLogin(bob.page, 'bob@example.com', DEMO_PASSWORD);
  await apiLogin(alice.page, 'alice@example.com', DEMO_PASSWORD);
  const order = async (page: Page, body: Record<string, string>) => {
    const placed = await postFromPage(page, '/api/v2/peatio/market/orders', { market: 'ethbtc', ...body });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  };
  // Prices in ticks of 0.00001 (the market's price precision), as integers until written out.
  const price = (ticks: number) => (ticks / 100_000).toFixed(5);
  for (let i = 0; i < LIVE_LEVELS; i++) {
    await order(bob.page, { side: 'sell', ord_type: 'limit', volume: '2', price: price(5000 + 10 * i) });
    await order(bob.page, { side: 'buy', ord_type: 'limit', volume: '1', price: price(4000 - 10 * i) });
  }
  const trade = () => order(alice.page, { side: 'buy', ord_type: 'market', volume: '0.1' });
  for (let i = 0; i < LIVE_TRADES; i++) await trade();
  for (let i = 0; i < 3; i++)
    await order(alice.page, { side: 'buy', ord_type: 'limit', volume: '0.5', price: price(3000 + i) });
  return {
    trade,
    async close() {
      for (const { page, context } of [bob, alice]) {
        await postFromPage(page, '/api/v2/peatio/market/orders/cancel', { market: 'ethbtc' });
        await context.close();
      }
    },
  };
}
