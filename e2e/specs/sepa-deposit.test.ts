import { describe, expect, it } from 'vitest';
import { activeAccount, apiLogin } from '../support/accounts.ts';
import { browserAndDatabase, openPage } from '../support/browser.ts';
import { signedInStaff } from '../support/staff.ts';
import { suiteApp } from '../support/suite-app.ts';
import { balanceOf, getFromPage } from '../support/wallet.ts';

/**
 * EUR by SEPA bank transfer (issue 31, part 3): a verified business finds the collection account and its own
 * reference on the EUR deposit page, the bank simulator receives a transfer with it and notifies the exchange,
 * and the balance and the deposit history show the money. A personal account is told it has no reference.
 */
const spec = browserAndDatabase();
const POLL = { timeout: 20_000 };

/** A company's transfer into the collection account, "sent" at the simulated bank's developer endpoint. */
async function sendAtBank(reference: string, amount: string): Promise<string> {
  const row = (await spec.db.query(`select value from app_secrets where name = 'bank_simulator'`)).rows[0];
  const { apiUsername, apiPassword } = JSON.parse(row.value) as { apiUsername: string; apiPassword: string };
  const response = await fetch(`${suiteApp().baseUrl}/bank-sim/v1/incoming-transfers`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'idempotency-key': `e2e-sepa-${Date.now()}-${Math.floor(Math.random() * 1e6)}`,
      authorization: `Basic ${Buffer.from(`${apiUsername}:${apiPassword}`).toString('base64')}`,
    },
    body: JSON.stringify({
      amount,
      debtor_name: 'Kimura Trading KK',
      debtor_iban: 'FR1420041010050500013M02606',
      remittance_information: `Top-up ${reference}`,
    }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { transaction_id: string }).transaction_id;
}

describe('EUR deposit by SEPA transfer', () => {
  it('shows a business its reference; the bank delivers a transfer; balance and history show it', async () => {
    const { email } = await activeAccount('sepa');
    const { context, page } = await openPage(spec.browser);
    await apiLogin(page, email);
    // Business registration is built elsewhere: the account is made a verified business directly.
    await spec.db.query(`update users set account_type = 'business', level = 3 where email = $1`, [email]);

    await page.goto('/balance');
    await page.getByTestId('fiat-deposit-eur').click();
    await page.waitForURL('**/deposit/eur');
    await page.getByText('Bank transfer (SEPA)').waitFor();
    await expect
      .poll(() => page.getByTestId('bank-iban').textContent(), POLL)
      .toBe('DE89 3704 0044 0532 0130 00');
    expect(await page.getByTestId('bank-bic').textContent()).toBe('COBADEFFXXX');
    expect(await page.getByTestId('bank-beneficiary').textContent()).toBe('Exchange Collection Account');
    const shown = (await page.getByTestId('bank-reference').textContent()) ?? '';
    expect(shown).toMatch(/^RF\d{2} EX[A-Z0-9]{2} [A-Z0-9]{4} [A-Z0-9]{4}$/);
    expect(await balanceOf(page, 'eur')).toBe(0);

    // The reference as the company's clerk typed it, with its spaces, in the payment reference.
    const transactionId = await sendAtBank(shown, '321.45');
    await expect.poll(() => balanceOf(page, 'eur'), POLL).toBe(321.45);
    const history = page.getByTestId('bank-deposit-history');
    await expect.poll(() => history.getByTestId('history-row').count(), POLL).toBe(1);
    const row = history.getByTestId('history-row').first();
    expect(await row.textContent()).toContain('SEPA');
    expect(await row.textContent()).toContain('321.45');
    expect(await row.textContent()).toContain(transactionId.slice(-6));

    // The account history and the balance page say the same.
    await page.goto('/history/account');
    await page.getByTestId('history-row').filter({ hasText: 'SEPA' }).first().waitFor();
    await page.goto('/balance');
    await expect.poll(() => page.getByTestId('balance-eur').textContent(), POLL).toContain('321.45');
    await context.close();
  });

  it('a transfer with a mistyped reference waits in the console until an accountant credits it', async () => {
    const { email } = await activeAccount('sepaqueue');
    const customer = await openPage(spec.browser);
    await apiLogin(customer.page, email);
    await spec.db.query(`update users set account_type = 'business', level = 3 where email = $1`, [email]);
    const { reference } = await getFromPage<{ reference: string }>(
      customer.page,
      '/api/v2/peatio/account/bank_deposit',
    );
    const { uid } = await getFromPage<{ uid: string }>(customer.page, '/api/v2/barong/resource/users/me');
    // The last character mistyped: the check digits catch it, so it is nobody's reference.
    const typo = `${reference.slice(0, -1)}${reference.endsWith('2') ? '3' : '2'}`;
    const amount = `${100 + Math.floor(Math.random() * 800)}.37`;
    await sendAtBank(typo, amount);

    const accountant = await signedInStaff(spec.browser, 'accountant');
    await accountant.page.getByRole('tab', { name: 'Bank transfers' }).click();
    const item = accountant.page.locator('[data-testid="admin-bank-transfer"]', { hasText: `${amount} EUR` });
    await item.waitFor();
    await item.getByText('Wrong or unknown reference').waitFor();
    expect(await balanceOf(customer.page, 'eur')).toBe(0);
    await item.getByTestId('bank-transfer-uid').fill(uid);
    await item.getByTestId('bank-transfer-reason').fill('reference mistyped by the sender; IBAN on file');
    await item.getByTestId('bank-transfer-assign').click();
    await accountant.page.getByText('Done.').waitFor();
    await expect.poll(() => item.count(), POLL).toBe(0);
    await expect.poll(() => balanceOf(customer.page, 'eur'), POLL).toBe(Number(amount));
    await customer.context.close();
    await accountant.context.close();
  });

  it('tells a personal account that bank deposits are for verified businesses', async () => {
    const { email } = await activeAccount('sepaperson');
    const { context, page } = await openPage(spec.browser);
    await apiLogin(page, email);
    await page.goto('/deposit/eur');
    await page.getByTestId('bank-deposit-refused').waitFor();
    expect(await page.getByTestId('bank-deposit-refused').textContent()).toContain(
      'Bank deposits are for verified business accounts',
    );
    expect(await page.getByTestId('bank-reference').count()).toBe(0);
    await context.close();
  });
});
