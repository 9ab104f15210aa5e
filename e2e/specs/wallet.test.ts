import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { activeAccount, apiLogin, DEMO_PASSWORD, latestCode } from '../support/accounts.ts';
import { browserAndDatabase, openPage } from '../support/browser.ts';
import { totpCodes } from '../support/totp.ts';
import { bobBidsForTrx, liftWithdrawHold } from '../support/wallet.ts';

const POLL = { timeout: 20_000 };

const spec = browserAndDatabase();

/** Picks an option of a Mantine select by its label. */
async function choose(page: Page, testId: string, option: string): Promise<void> {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** The status cells of the history table on screen. */
const statuses = (page: Page) => page.getByTestId('history-status').allTextContents();

describe('wallet screens', () => {
  it('shows the balances, filters them, and opens Deposit/Withdraw on the chosen coin', async () => {
    const { context, page } = await openPage(spec.browser);
    await apiLogin(page, 'alice@example.com', DEMO_PASSWORD);
    await page.goto('/balance');
    await page.getByRole('heading', { name: 'Spot Balance' }).waitFor();
    await page.getByTestId('balance-btc').waitFor();
    expect(await page.getByTestId('total-usdt').textContent()).toMatch(/^\d+\.\d{2} USDT$/);
    expect(await page.getByTestId('total-usdt').textContent()).not.toBe('0.00 USDT');

    await page.getByTestId('balance-search').fill('teth');
    await page.getByTestId('balance-usdt').waitFor();
    expect(await page.getByTestId('balance-btc').count()).toBe(0);
    await page.getByTestId('balance-search').fill('nothing-like-this');
    await page.getByText('No record found').waitFor();
    await page.getByTestId('balance-search').fill('');

    await page.getByTestId('balance-btc').getByRole('button', { name: 'Deposit/Withdraw' }).click();
    await page.waitForURL((url) => url.pathname === '/deposit_withdraw');
    await expect.poll(() => page.getByTestId('dw-coin').inputValue(), POLL).toMatch(/^BTC/);
    await context.close();
  });

  it('deposits from the faucet (Pending, then Completed), withdraws to a saved address with 2FA, and swaps', async () => {
    const { email } = await activeAccount('wallet');
    const { email: otherEmail } = await activeAccount('payee');
    const { context, page } = await openPage(spec.browser);

    // The receiving user's tron address, for the saved address later.
    const other = await openPage(spec.browser);
    await apiLogin(other.page, otherEmail);
    await other.page.goto('/deposit_withdraw');
    const payeeAddress =
      (await other.page.getByTestId('deposit-address').textContent({ timeout: 20_000 })) ?? '';
    expect(payeeAddress.length).toBeGreaterThan(10);
    await other.context.close();

    await apiLogin(page, email);
    await page.goto('/deposit_withdraw');
    // The coin list arrives after the first render.
    await expect.poll(() => page.getByTestId('dw-coin').inputValue(), POLL).toMatch(/^TRX/);
    const address = (await page.getByTestId('deposit-address').textContent({ timeout: 20_000 })) ?? '';
    expect(address.length).toBeGreaterThan(10);

    // Faucet: our own address is filled in; 100 TRX go out, then 30 blocks confirm them.
    await page.goto('/dev/faucet');
    await expect.poll(() => page.getByTestId('faucet-address').inputValue(), POLL).toBe(address);
    await page.getByTestId('faucet-amount').fill('100');
    await page.getByTestId('faucet-send').click();
    await page.getByText('Coins sent').waitFor();
    await page.goto('/history/account');
    await expect.poll(() => statuses(page), POLL).toEqual(['Pending']);
    // The simulated chain mines a block a second: the count moves on the page, without a reload.
    const confirmations = async () => {
      const text = (await page.getByTestId('history-confirmations').textContent()) ?? '';
      const found = /^(\d+)\/30 confirmations$/.exec(text);
      return found ? Number(found[1]) : -1;
    };
    const first = await confirmations();
    expect(first).toBeGreaterThanOrEqual(0);
    await expect.poll(confirmations, POLL).toBeGreaterThan(first);
    await page.goto('/dev/faucet');
    await page.getByTestId('faucet-blocks').fill('30');
    await page.getByTestId('faucet-mine').click();
    await page.getByText('Blocks mined').waitFor();
    await page.goto('/history/account');
    await expect.poll(() => statuses(page), POLL).toEqual(['Completed']);

    // A future date is refused with the spec's message.
    await page.getByTestId('history-to').fill('2999-01-01');
    await page.getByTestId('history-search').click();
    expect(await page.getByTestId('history-error').textContent()).toBe('Please enter a valid date range');
    await page.getByTestId('history-from').fill('2020-02-01');
    await page.getByTestId('history-to').fill('2020-01-01');
    await page.getByTestId('history-search').click();
    expect(await page.getByTestId('history-error').textContent()).toBe('Please enter a valid date range');
    await page.getByTestId('history-to').fill('2020-03-01');
    await page.getByTestId('history-search').click();
    await page.getByText('No record found').waitFor();
    await page.getByTestId('history-reset').click();
    await expect.poll(() => statuses(page), POLL).toEqual(['Completed']);

    // Withdraw at level 2: the verification-required prompt (to the KYC flow or the profile).
    await page.goto('/deposit_withdraw');
    await page.getByTestId('tab-withdraw').click();
    await page.getByTestId('kyc-required').waitFor();
    await page.keyboard.press('Escape');

    await spec.db.query('update users set level = 3 where email = $1', [email]);
    await page.reload();
    await page.getByTestId('tab-withdraw').click();
    await page.getByTestId('withdraw-prompt-otp').waitFor();
    await page.getByTestId('withdraw-enable-2fa').click();
    const secret = (await page.getByTestId('otp-secret').textContent())?.trim() ?? '';
    const nextCode = totpCodes(secret);
    await page.getByTestId('otp-code').fill(await nextCode());
    await page.getByRole('button', { name: 'Enable' }).last().click();
    await page.getByText('2FA enabled').waitFor();
    await page.getByTestId('withdraw-hold').waitFor();
    expect(await page.getByTestId('withdraw-hold').textContent()).toContain('on hold for 24 hours');
    await liftWithdrawHold(spec.db, email);
    await page.reload();
    await page.getByTestId('tab-withdraw').click();
    await page.getByTestId('withdraw-amount').waitFor();
    expect(await page.getByTestId('withdraw-hold').count()).toBe(0);

    // Save the payee's address: the name is required, then the emailed pin activates it.
    await page.getByTestId('manage-addresses').click();
    await page.getByTestId('beneficiary-add').click();
    await page.getByText('Name is required').waitFor();
    await page.getByTestId('beneficiary-name').fill('Payee');
    await page.getByTestId('beneficiary-address').fill(payeeAddress);
    // The travel rule: whom the address belongs to, and where it is held.
    await page.getByText("Enter the name of the address's owner").waitFor();
    await page.getByTestId('beneficiary-owner').fill('Pat Payee');
    await page.getByTestId('beneficiary-self-hosted').check();
    await page.getByTestId('beneficiary-add').click();
    await page.getByTestId('beneficiary-pin').waitFor();
    await page.getByTestId('beneficiary-activate-confirm').click();
    await page.getByText('Field is Required').waitFor();
    await page.getByTestId('beneficiary-pin').fill(await latestCode(email));
    await page.getByTestId('beneficiary-activate-confirm').click();
    await page.getByText('Address activated').waitFor();
    await page.getByTestId('beneficiary-resend').waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');

    // Refusals first, then 10 TRX with the authenticator code.
    await page.getByTestId('withdraw-submit').click();
    await page.getByText('Withdraw address is required').waitFor();
    await page.getByText('Please enter an amount').waitFor();
    await choose(page, 'withdraw-beneficiary', `Payee — ${payeeAddress}`);
    await page.getByTestId('withdraw-amount').fill('1000');
    await page.getByTestId('withdraw-submit').click();
    await page.getByText('Please enter an amount not higher than available balance').waitFor();
    await page.getByTestId('withdraw-amount').fill('10');
    await page.getByTestId('withdraw-submit').click();
    await page.getByTestId('withdraw-confirm').click();
    await page.getByText('Code is required').waitFor();
    await page.getByTestId('withdraw-otp').fill(await nextCode());
    await page.getByTestId('withdraw-confirm').click();
    await page.getByText('Withdrawal requested successfully').waitFor();
    expect(await page.getByTestId('withdraw-amount').inputValue()).toBe('');
    await expect
      .poll(() => page.getByTestId('recent-history').getByTestId('history-row').count(), POLL)
      .toBe(1);

    // Swap 10 TRX to USDT at bob's bid (the e2e app starts with empty books), then find it in the history.
    const _bob = await bobBidsForTrx(spec.browser);
    await page.goto('/swap');
    await choose(page, 'swap-from', 'TRX');
    await choose(page, 'swap-to', 'USDT');
    await page.getByTestId('swap-amount').fill('10');
    await page.getByTestId('swap-quote').waitFor();
    expect(await page.getByTestId('swap-you-get').textContent()).toMatch(/^\d+(\.\d+)? USDT$/);
    await page.getByTestId('swap-submit').click();
    await page.getByText('Swap completed successfully').waitFor();
    await page.getByTestId('tab-swap-history').click();
    await expect.poll(() => page.getByTestId('swap-row').count(), POLL).toBe(1);
    expect(await page.getByTestId('swap-row').textContent()).toContain('TRX');
    await context.close();
  });
});
