import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { activeAccount, apiLogin, latestCode, postFromPage } from '../support/accounts.ts';
import { launchBrowser, openPage } from '../support/browser.ts';
import { totpCodes } from '../support/totp.ts';

const POLL = { timeout: 20_000 };

let browser: Browser;
let db: pg.Pool;
beforeAll(async () => {
  browser = await launchBrowser();
  db = new pg.Pool({ connectionString: inject('databaseUrl'), max: 1 });
});
afterAll(async () => {
  await browser.close();
  await db.end();
});

/** GETs JSON from inside the page, with its cookies. */
function getFromPage<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (p) => (await fetch(p, { credentials: 'include' })).json(), path) as Promise<T>;
}

/** Turns 2FA on through the API and returns the code source; level 3 and no 24-hour hold, so withdrawals work. */
async function withdrawReady(page: Page, email: string): Promise<() => Promise<string>> {
  const qr = await postFromPage(page, '/api/v2/barong/resource/otp/generate_qrcode', {});
  const url = (qr.body as { data: { url: string } }).data.url;
  const secret = new URL(url).searchParams.get('secret') ?? '';
  const nextCode = totpCodes(secret);
  const enabled = await postFromPage(page, '/api/v2/barong/resource/otp/enable', { code: await nextCode() });
  expect(enabled.status).toBe(201);
  await db.query('update users set level = 3 where email = $1', [email]);
  await db.query(
    `update activities set created_at = created_at - interval '25 hours'
      where topic = 'otp' and user_id = (select id from users where email = $1)`,
    [email],
  );
  await db.query(
    `update users set password_changed_at = password_changed_at - interval '25 hours' where email = $1`,
    [email],
  );
  return nextCode;
}

describe('wallet dialogs', () => {
  it('shows the known refusals of the beneficiary and fiat dialogs by their own messages', async () => {
    const { email } = await activeAccount('dialogs');
    const { email: payeeEmail } = await activeAccount('dialogpayee');
    const payee = await openPage(browser);
    await apiLogin(payee.page, payeeEmail);
    const { address: payeeAddress } = await getFromPage<{ address: string }>(
      payee.page,
      '/api/v2/peatio/account/deposit_address/trx',
    );
    await payee.context.close();

    const { context, page } = await openPage(browser);
    await apiLogin(page, email);
    const nextCode = await withdrawReady(page, email);

    await page.goto('/deposit_withdraw');
    await expect.poll(() => page.getByTestId('dw-coin').inputValue(), POLL).toMatch(/^TRX/);
    await page.getByTestId('tab-withdraw').click();
    await page.getByTestId('manage-addresses').click();
    await page.getByTestId('beneficiary-name').fill('Payee');
    await page.getByTestId('beneficiary-address').fill(payeeAddress);
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
