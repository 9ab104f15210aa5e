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
let masked = '';
let email = '';

beforeAll(async () => {
  ({ email } = await activeAccount('cdlg'));
  ({ context, page } = await openPage(spec.browser));
  await apiLogin(page, email);
  await spec.db.query('update users set level = 3 where email = $1', [email]);
  masked = await orderedCard(page, email);
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

  it('Block/Report Lost Card starts with the card on screen and shows what will happen (item 1)', async () => {
    await page.getByTestId('card-actions').click();
    await page.getByTestId('card-action-block').click();
    const modal = page.getByTestId('card-action-modal-block');
    await modal.waitFor();
    expect(await modal.getByTestId('card-action-card').inputValue()).toBe(masked);
    expect(await modal.getByTestId('card-action-preview-card').textContent()).toBe(masked);
    expect(await modal.getByTestId('card-action-preview-now').textContent()).toBe('Active');
    expect(await modal.getByTestId('card-action-preview-after').textContent()).toBe('Blocked');
    expect(await modal.getByTestId('card-action-preview-fee').textContent()).toBe('No fee');
    // Confirm straight away: no "Please select card no.".
    await modal.getByTestId('card-action-confirm').click();
    await modal.waitFor({ state: 'detached' });
    expect(await page.getByText('Please select card no.').count()).toBe(0);
    await expect.poll(status, POLL).toBe('Blocked');

    // Unblock the same way; choosing no card still asks for one.
    await page.getByTestId('card-actions').click();
    await page.getByTestId('card-action-unblock').click();
    const unblock = page.getByTestId('card-action-modal-unblock');
    await unblock.waitFor();
    expect(await unblock.getByTestId('card-action-preview-now').textContent()).toBe('Blocked');
    expect(await unblock.getByTestId('card-action-preview-after').textContent()).toBe('Active');
    await unblock.getByTestId('card-action-card').selectOption('');
    expect(await unblock.getByTestId('card-action-preview').count()).toBe(0);
    await unblock.getByTestId('card-action-confirm').click();
    await unblock.getByText('Please select card no.').waitFor();
    await unblock.getByTestId('card-action-card').selectOption(masked);
    await unblock.getByTestId('card-action-confirm').click();
    await unblock.waitFor({ state: 'detached' });
    await expect.poll(status, POLL).toBe('Active');

    // Replace Card starts with the card on screen too, and says what becomes of it.
    await page.getByTestId('card-actions').click();
    await page.getByTestId('card-action-replace').click();
    const replace = page.getByTestId('card-action-modal-replace');
    expect(await replace.getByTestId('card-action-card').inputValue()).toBe(masked);
    expect(await replace.getByTestId('card-action-preview-after').textContent()).toBe(
      'Card replacement processing',
    );
    await page.keyboard.press('Escape');
    await replace.waitFor({ state: 'detached' });
  });
});
