import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAccount, apiLogin } from '../support/accounts.ts';
import { browserAndDatabase, openPage } from '../support/browser.ts';
import { orderedCard } from '../support/card.ts';

/**
 * The card dashboard's dialogs as a cardholder meets them (issue 32, accounts and cards items): one level-3 user
 * with one card, taken through activation, the action dialogs and top-ups in order.
 */

const POLL = { timeout: 20_000 };
const spec = browserAndDatabase();

let context: BrowserContext;
let page: Page;
let email = '';

beforeAll(async () => {
  ({ email } = await activeAccount('cdlg'));
  ({ context, page } = await openPage(spec.browser));
  await apiLogin(page, email);
  await spec.db.query('update users set level = 3 where email = $1', [email]);
  await orderedCard(page, email);
  await page.goto('/card');
  await page.getByTestId('card-dashboard').waitFor(POLL);
}, 180_000);
afterAll(() => context.close());

const status = () => page.getByTestId('card-wallet-status').textContent();

describe('card dialogs', () => {
  it('the activation field strips letters first, then cuts (item 6)', async () => {
    await expect.poll(status, POLL).toBe('Not active');
    const field = page.getByTestId('card-activate-number');
    await field.fill('4111ab1111cd1111ef1111');
    expect(await field.inputValue()).toBe('4111111111111111');
    await field.fill('');
    await field.pressSequentially('4111ab1111cd1111ef1111');
    expect(await field.inputValue()).toBe('4111111111111111');

    await page.getByTestId('card-show-number').click();
    await expect.poll(() => page.getByTestId('card-number').textContent(), POLL).toMatch(/^[\d ]{19}$/);
    const full = ((await page.getByTestId('card-number').textContent()) ?? '').replace(/\s/g, '');
    await field.fill(full);
    await page.getByTestId('card-activate').click();
    await expect.poll(status, POLL).toBe('Active');
  });
});
