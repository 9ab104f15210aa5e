import { describe, expect, it } from 'vitest';
import { activeAccount, apiLogin, PASSWORD } from '../support/accounts.ts';
import { browserAndDatabase, openPage } from '../support/browser.ts';
import { balanceOf, depositFromFaucet, withdrawReady } from '../support/wallet.ts';

/**
 * Transfers to another user by email or phone number, with the account password (FAQ; issue 32 item 1): the
 * Transfer tab of Deposit/Withdraw, its refusals by their messages, and the money arriving.
 */
const spec = browserAndDatabase();
const POLL = { timeout: 20_000 };

describe('transfer to another user', () => {
  it('sends TRX by email and by phone with the password, and refuses what it must', async () => {
    const { email } = await activeAccount('sender');
    const friend = await activeAccount('receiver');
    const { context, page } = await openPage(spec.browser);
    await apiLogin(page, email);
    await withdrawReady(page, spec.db, email);
    await depositFromFaucet(page, 'trx', 'tron-sim', '50');

    await page.goto('/deposit_withdraw');
    await expect.poll(() => page.getByTestId('dw-coin').inputValue(), POLL).toMatch(/^TRX/);
    await page.getByTestId('tab-transfer').click();
    await page.getByTestId('transfer-recipient').waitFor();
    expect(await page.getByTestId('transfer-fee').textContent()).toBe('0 TRX');

    const fill = async (recipient: string, amount: string, password: string) => {
      await page.getByTestId('transfer-recipient').fill(recipient);
      await page.getByTestId('transfer-amount').fill(amount);
      await page.getByTestId('transfer-password').fill(password);
      await page.getByTestId('transfer-submit').click();
    };
    // Nothing filled: the three fields' own messages.
    await page.getByTestId('transfer-submit').click();
    await page.getByText("Enter the recipient's email, phone number or address").waitFor();
    await page.getByText('Please enter an amount').waitFor();
    await page.getByText('Password is required').waitFor();
    // Checked in the form: more than the balance, less than the minimum withdrawal (10 TRX, no fee).
    await fill(friend.email, '100', PASSWORD);
    await page.getByText('Please enter an amount not higher than available balance').waitFor();
    await fill(friend.email, '5', PASSWORD);
    await page.getByText('Amount to withdraw should be at least 10 TRX').waitFor();
    // Refused by the server: nobody with that email, oneself, a wrong password.
    await fill('nobody-here@example.com', '12', PASSWORD);
    await page.getByText('No user of this exchange can receive a transfer with these details').waitFor();
    await fill(email, '12', PASSWORD);
    await page.getByText('You cannot transfer to yourself').waitFor();
    await fill(friend.email, '12', 'Not-the-password1');
    await page.getByText('The password is not correct').waitFor();
    expect(await balanceOf(page, 'trx')).toBe(50);

    // By email: at once, and the form is cleared.
    await fill(friend.email.toUpperCase(), '12', PASSWORD);
    await page.getByText('Transfer completed').waitFor();
    expect(await page.getByTestId('transfer-recipient').inputValue()).toBe('');
    await expect.poll(() => balanceOf(page, 'trx'), POLL).toBe(38);
    await expect
      .poll(() => page.getByTestId('recent-history').getByTestId('history-row').count(), POLL)
      .toBe(1);
    // By phone number, with a plus and spaces.
    await fill(`+${friend.phone.slice(0, 2)} ${friend.phone.slice(2)}`, '10', PASSWORD);
    await page.getByText('Transfer completed').last().waitFor();
    await expect.poll(() => balanceOf(page, 'trx'), POLL).toBe(28);

    const receiver = await openPage(spec.browser);
    await apiLogin(receiver.page, friend.email);
    expect(await balanceOf(receiver.page, 'trx')).toBe(22);
    await receiver.context.close();
    await context.close();
  });
});
