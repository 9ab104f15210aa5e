import { formatUnits, largestTopupFor, quickTopup, topupFee, toUnits } from '@exchange/shared';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAccount, apiLogin, postFromPage } from '../support/accounts.ts';
import { browserAndDatabase, openPage } from '../support/browser.ts';
import { orderedCard } from '../support/card.ts';
import { getFromPage } from '../support/wallet.ts';

/**
 * The card dashboard's dialogs as a cardholder meets them (issue 32, accounts and cards items): one level-3 user
 * with one card, taken through activation, the action dialogs and top-ups in order.
 */

const POLL = { timeout: 20_000 };
const USDT_BALANCE = '/api/v2/peatio/account/balances/usdt';
const spec = browserAndDatabase();

let context: BrowserContext;
let page: Page;
let masked = '';
let email = '';
/** The top-up the quick-button test made, and its fee, in USDT units. */
let loaded = { amount: 0n, fee: 0n };

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

  it('Top up is disabled on a blocked card and says why beside it (item 9)', async () => {
    const blocked = await postFromPage(page, '/api/v2/peatio/account/report/card_loss', {
      card_number: masked,
      type: 'Block',
    });
    expect(blocked.status).toBe(201);
    await page.reload();
    await expect.poll(status, POLL).toBe('Blocked');
    const open = page.getByTestId('card-topup-open');
    await expect.poll(() => open.isDisabled(), POLL).toBe(true);
    expect(await page.getByTestId('card-topup-blocked-note').textContent()).toBe('Your card is blocked');
    expect(await open.getAttribute('aria-describedby')).toBe(
      await page.getByTestId('card-topup-blocked-note').getAttribute('id'),
    );

    const unblocked = await postFromPage(page, '/api/v2/peatio/account/remove/card_loss', {
      card_number: masked,
      type: 'Unblock',
    });
    expect(unblocked.status).toBe(201);
    await page.reload();
    await expect.poll(status, POLL).toBe('Active');
    await expect.poll(() => open.isEnabled(), POLL).toBe(true);
    expect(await page.getByTestId('card-topup-blocked-note').count()).toBe(0);
  });

  it('the quick buttons offer what can be loaded: 100 % is the balance less the 1 % fee, and it loads (item 2)', async () => {
    const spot = toUnits((await getFromPage<{ balance: string }>(page, USDT_BALANCE)).balance, 6);
    const fee = await getFromPage<{ topup_fee: string; topup_limit: string }>(
      page,
      '/api/v2/peatio/account/card_fee',
    );
    const expected = largestTopupFor(spot, fee.topup_fee);
    // (The 1 % fee is what binds here: the limits are far above the balance.)
    expect(expected).toBeLessThan(toUnits(fee.topup_limit, 6));
    await page.getByTestId('card-topup-open').click();
    const modal = page.getByTestId('card-topup-modal');
    await modal.waitFor();
    const amount = page.getByTestId('card-topup-amount');
    await expect.poll(() => page.getByTestId('card-topup-percent-100').isEnabled(), POLL).toBe(true);
    await page.getByTestId('card-topup-percent-25').click();
    expect(await amount.inputValue()).toBe(formatUnits(quickTopup(expected, 25), 6));
    await page.getByTestId('card-topup-percent-100').click();
    expect(await amount.inputValue()).toBe(formatUnits(expected, 6));
    await page.getByTestId('card-topup-submit').click();
    await modal.waitFor({ state: 'detached' });
    await page.getByText('Top up submitted. It takes at least 30 minutes to reflect on your card.').waitFor();
    // What is left of the spot balance is less than a unit plus its fee.
    const left = toUnits((await getFromPage<{ balance: string }>(page, USDT_BALANCE)).balance, 6);
    expect(left).toBe(spot - expected - topupFee(expected, fee.topup_fee));
    expect(largestTopupFor(left, fee.topup_fee)).toBe(0n);
    loaded = { amount: expected, fee: topupFee(expected, fee.topup_fee) };
  });

  it("the statement's Fee column shows what the top-up cost (item 8)", async () => {
    expect(loaded.fee).toBeGreaterThan(0n);
    await page.goto('/view_statement');
    await page.getByTestId('statement-form').waitFor();
    await expect.poll(() => page.getByTestId('statement-card').inputValue(), POLL).toBe(masked);
    const topup = page.getByTestId('statement-row').filter({ hasText: 'Top-up' });
    // The issuer settles the top-up a second after it was asked (CARD_TOPUP_SETTLE_SECONDS in this run); the
    // page reads the statement as it opens.
    await expect
      .poll(async () => {
        await page.reload();
        await expect.poll(() => page.getByTestId('statement-card').inputValue(), POLL).toBe(masked);
        await page.getByTestId('statement-submit').click();
        await page.getByTestId('statement-table').waitFor();
        return topup.count();
      }, POLL)
      .toBe(1);
    // (Amounts longer than 8 characters are cut with an ellipsis, docs/cards.md#constants.)
    const amount = (await topup.getByTestId('statement-row-amount').textContent()) ?? '';
    expect(formatUnits(loaded.amount, 6).startsWith(amount.replace('…', ''))).toBe(true);
    expect(await topup.getByTestId('statement-row-fee').textContent()).toBe(formatUnits(loaded.fee, 6));
  });
});
