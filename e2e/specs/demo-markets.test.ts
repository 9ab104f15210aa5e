import { rm } from 'node:fs/promises';
import {
  auditLedger,
  createPool,
  type ServerProcess,
  serverSetup,
  startEmbeddedPostgres,
  startServerProcess,
} from '@exchange/server/harness';
import { WEB_DIST } from '@exchange/web/build-output';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from '../support/browser.ts';

const POLL = { timeout: 20_000, interval: 200 };

// The suite's server runs without demo books (its trading tests start from empty books); this one runs as a
// newcomer's `npm start` does: demo history, demo book and the liquidity bot.
let browser: Browser;
let server: ServerProcess;
let base: string;
let dataDir: string;
let env: Record<string, string>;

beforeAll(async () => {
  ({ dataDir, env, base } = await serverSetup('exchange-demo-', {
    NODE_ENV: 'development',
    WEB_DIST,
    DEMO_BOOKS: 'true',
    DEMO_BOT: 'on',
    DEMO_BOT_INTERVAL_MS: '500',
  }));
  [server, browser] = await Promise.all([startServerProcess(env), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  server?.child.kill('SIGTERM');
  await server?.exited;
  await rm(dataDir, { recursive: true, force: true });
});

describe('a newcomer on a fresh install', () => {
  it('sees markets with a history that trade while they watch', async () => {
    const { context, page } = await openPage(browser, { baseUrl: base });
    await page.goto('/trade/btcusdt');
    const chart = page.getByTestId('price-chart');
    // The default five-minute chart is full (300 candles), and the 24-hour change is not a flat 0 %.
    await expect
      .poll(async () => Number(await chart.getAttribute('data-candles')), POLL)
      .toBeGreaterThan(250);
    await expect.poll(() => page.getByTestId('ticker-change').textContent(), POLL).not.toBe('+0.00%');

    // Daily candles over the last three months: the history reaches back 90 days.
    await page.getByTestId('chart-period').getByText('1d', { exact: true }).click();
    await page.getByTestId('chart-time-frame').getByText('3m', { exact: true }).click();
    await expect.poll(async () => Number(await chart.getAttribute('data-candles')), POLL).toBeGreaterThan(85);

    // The bot trades every half second here: a new trade arrives at the top of the list without a reload.
    const newest = () => page.getByTestId('trade-row').first().getAttribute('data-id');
    await expect.poll(newest, POLL).not.toBeNull();
    const first = Number(await newest());
    await expect.poll(async () => Number(await newest()), POLL).toBeGreaterThan(first);
    expect(server.output()).not.toContain('demo bot:');
    await context.close();

    // Every seeded and traded amount went through the ledger.
    const database = await startEmbeddedPostgres(
      dataDir,
      Number(env.EMBEDDED_PG_PORT),
      {
        info: () => {},
        warn: () => {},
      },
      { attach: true },
    );
    const pool = createPool(database.url, 1);
    expect(await auditLedger(pool).finally(() => pool.end())).toEqual([]);
  });
});
