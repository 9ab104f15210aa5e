import { describe, expect, it } from 'vitest';
import { activeAccount, apiLogin, latestCode } from '../support/accounts.ts';
import { browserAndDatabase, openPage } from '../support/browser.ts';
import { getFromPage, withdrawReady } from '../support/wallet.ts';

const POLL = { timeout: 20_000 };

const spec = browserAndDatabase();

describe('wallet dialogs', () => {
  it('shows the known refusals of the beneficiary and fiat dialogs by their own messages', async () => {
    const { email } = await activeAccount('dialogs');
    const { email: payeeEmail } = await activeAccount('dialogpayee');
    const payee = await openPage(spec.browser);
    await apiLogin(payee.page, payeeEmail);
    const { address: payeeAddress } = await getFromPage<{ address: string }>(
      payee.page,
      '/api/v2/peatio/account/deposit_address/trx',
    );
    await payee.context.close();

    const { context, page } = await openPage(spec.browser);
    await apiLogin(page, email);
    const nextCode = await withdrawReady(page, spec.db, email);

    await page.goto('/deposit_withdraw');
    await expect.poll(() => page.getByTestId('dw-coin').inputValue(), POLL).toMatch(/^TRX/);
    await page.getByTestId('tab-withdraw').click();
    await page.getByTestId('manage-addresses').click();
    await page.getByTestId('beneficiary-name').fill('Payee');
    await page.getByTestId('beneficiary-address').fill(payeeAddress);
    await page.getByTestId('beneficiary-owner').fill('Pat Payee');
    await page.getByTestId('beneficiary-self-hosted').check();
    await page.getByTestId('beneficiary-add').click();
    await page.getByTestId('beneficiary-pin').waitFor();

    // A wrong pin: account.beneficiary.invalid_pin.
    const pin = await latestCode(email);
    await page.getByTestId('beneficiary-pin').fill(pin === '000000' ? '111111' : '000000');
    await page.getByTestId('beneficiary-activate-confirm').click();
    await page.getByText('Invalid code', { exact: true }).waitFor();
    expect(await page.getByText('Server error').count()).toBe(0);
    await page.getByTestId('beneficiary-pin').fill(pin);
    await page.getByTestId('beneficiary-activate-confirm').click();
    await page.getByText('Address activated').waitFor();
    await page.keyboard.press('Escape');

    // The payee is a user of this exchange: an internal transfer, no fee, the whole amount arrives.
    await page.getByTestId('withdraw-beneficiary').click();
    await page.getByRole('option', { name: `Payee — ${payeeAddress}`, exact: true }).click();
    await page.getByTestId('withdraw-amount').fill('12.5');
    await expect.poll(() => page.getByTestId('withdraw-fee').textContent(), POLL).toBe('0 TRX');
    expect(await page.getByTestId('withdraw-will-get').textContent()).toBe('12.5 TRX');
    await page.getByTestId('manage-addresses').click();

    // A wrong authenticator code on removal: resource.otp.invalid_code.
    await page.getByRole('button', { name: 'Delete' }).first().click();
    await page.getByTestId('beneficiary-delete-otp').fill('000000');
    await page.getByTestId('beneficiary-delete-confirm').click();
    await page.getByText('Invalid 2FA Code', { exact: true }).waitFor();
    expect(await page.getByText('Server error').count()).toBe(0);
    await page.keyboard.press('Escape');

    // A zero fiat amount passes the form but not the server: account.withdraw.invalid_amount.
    await page.goto('/balance');
    await page.getByTestId('fiat-eur').click();
    await page.getByTestId('fiat-holder').fill('Mina Kimura');
    await page.getByTestId('fiat-iban').fill('DE89370400440532013000');
    await page.getByTestId('fiat-amount').fill('0');
    await page.getByTestId('fiat-otp').fill(await nextCode());
    await page.getByTestId('fiat-submit').click();
    await page.getByText('Please enter a valid amount', { exact: true }).waitFor();
    expect(await page.getByText('Server error').count()).toBe(0);
    await context.close();
  });
});
