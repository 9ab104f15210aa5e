import { readFile } from 'node:fs/promises';
import { strFromU8, unzipSync } from 'fflate';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAccount, apiLogin } from '../support/accounts.ts';
import { launchBrowser, openPage } from '../support/browser.ts';

// Issue 31, part 5: Settings › Your data downloads a ZIP of the user's data, once a day, in a real browser.
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

describe('Settings › Your data', () => {
  it('downloads a ZIP of CSV and JSON files, then refuses a second one the same day and says when', async () => {
    const { email } = await activeAccount('yourdata');
    const { page } = await openPage(browser);
    await apiLogin(page, email);
    await page.goto('/settings');
    const section = page.getByTestId('your-data-section');
    await section.getByText('You can download one copy a day.', { exact: false }).waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      section.getByRole('button', { name: 'Download my data' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^exchange-data-ID[0-9A-F]{10}-\d{4}-\d{2}-\d{2}\.zip$/);
    const zip = unzipSync(new Uint8Array(await readFile(await download.path())));
    const names = Object.keys(zip);
    for (const name of ['README.txt', 'profile.json', 'account.csv', 'phones.csv'])
      expect(names).toContain(name);
    for (const table of [
      'security-log',
      'orders',
      'trades',
      'deposits',
      'withdrawals',
      'swaps',
      'card-statements',
    ])
      expect(names).toEqual(expect.arrayContaining([`${table}.csv`, `${table}.json`]));
    const text = (name: string) => strFromU8(zip[name] ?? new Uint8Array());
    expect(JSON.parse(text('profile.json'))).toMatchObject({ email, state: 'active' });
    const log = JSON.parse(text('security-log.json')) as { action: string }[];
    expect(log.map((e) => e.action)).toEqual(expect.arrayContaining(['login', 'data_export']));
    expect(text('orders.csv').split('\r\n')[0]).toMatch(/^id,uuid,market,side,/);
    await section.getByText('Your data has been downloaded.').waitFor();

    // The export is in the security log, under its own topic.
    await page.getByTestId('security-log-section').locator('[data-action="data_export"]').first().waitFor();

    // A second one the same day: refused, with the time it is possible again.
    await section.getByRole('button', { name: 'Download my data' }).click();
    const refusal = section.getByTestId('your-data-error');
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(
      /^You have already downloaded your data today\. You can download it again after \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}\.$/,
    );
  });
});
