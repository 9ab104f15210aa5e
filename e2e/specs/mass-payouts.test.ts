import { randomBytes } from 'node:crypto';
import { encodeTronAddress } from '@exchange/shared';
import { describe, expect, it } from 'vitest';
import { activeAccount, apiLogin, unique } from '../support/accounts.ts';
import { axeViolations, blocking, describeViolations } from '../support/axe.ts';
import { browserAndDatabase, openPage } from '../support/browser.ts';
import { depositFromFaucet, withdrawReady } from '../support/wallet.ts';

/**
 * Mass payouts (issue 31, part 3): a verified business uploads 50 payments of which 3 are wrong, sees each wrong
 * row with its problem, fixes the file, uploads it again, executes it with one authenticator code and follows
 * every row's state on the file's page.
 */
const spec = browserAndDatabase();
const POLL = { timeout: 60_000, interval: 500 };
const HEADER = 'currency,network,recipient,amount,reference';

/** A valid TRON address nobody on the exchange owns. */
const outside = () => encodeTronAddress(randomBytes(20));

describe('mass payouts', () => {
  it('shows 3 bad rows of 50, takes the fixed file, executes it with one code and shows the progress', async () => {
    const payer = await activeAccount('payer');
    const payee = await activeAccount('payee');
    const { context, page } = await openPage(spec.browser);
    await apiLogin(page, payer.email);
    const nextCode = await withdrawReady(page, spec.db, payer.email);
    // Business registration is built elsewhere: the account is made a verified business directly.
    await spec.db.query(`update users set account_type = 'business', level = 3 where email = $1`, [
      payer.email,
    ]);
    await depositFromFaucet(page, 'trx', 'tron-sim', '700');

    // 50 payments: every tenth to the payee's email (an internal transfer), the rest to outside addresses.
    const rows = Array.from({ length: 50 }, (_, i) =>
      i % 10 === 0
        ? `trx,tron-sim,${payee.email},10,salary ${i + 1}`
        : `trx,tron-sim,${outside()},11,"invoice ${i + 1}, net 30"`,
    );
    const good = (lines: string[]) => `${[HEADER, ...lines].join('\n')}\n`;
    const typo = outside();
    const bad = [...rows];
    // File lines (the header is line 1): 8, 20 and 35.
    bad[6] = `trx,tron-sim,${typo.slice(0, -1)}${typo.endsWith('2') ? '3' : '2'},11,typo`;
    bad[18] = `trx,tron-sim,${outside()},5,too little`;
    bad[33] = `trx,tron-sim,nobody-${unique()}@example.com,10,unknown`;

    await page.goto('/payouts');
    await page.getByRole('heading', { name: 'Mass payouts' }).waitFor();
    const choose = (csv: string) =>
      page.getByTestId('payout-file').setInputFiles({
        name: 'march-payouts.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(csv),
      });
    await choose(good(bad));
    await page.getByTestId('payout-check').click();
    await page.getByTestId('payout-row-errors').waitFor();
    await page.getByText('The file was not accepted. Fix the rows below and upload it again.').waitFor();
    const errors = page.getByTestId('payout-row-errors').locator('tbody tr');
    expect(await errors.count()).toBe(3);
    expect(await page.getByTestId('payout-row-error-8').textContent()).toContain(
      'Not a valid address of this network',
    );
    expect(await page.getByTestId('payout-row-error-20').textContent()).toContain(
      'The amount is below the minimum withdrawal.',
    );
    expect(await page.getByTestId('payout-row-error-35').textContent()).toContain(
      'No account has this email.',
    );
    const onErrors = blocking(await axeViolations(page));
    expect(onErrors, describeViolations(onErrors)).toEqual([]);

    // Fixed and uploaded again: accepted, and its page lists the 50 rows waiting.
    const fixed = good(rows);
    await choose(fixed);
    await page.getByTestId('payout-check').click();
    await page.waitForURL(/\/payouts\/\d+$/);
    const fileUrl = page.url();
    await page.getByTestId('payout-rows').waitFor();
    expect(await page.getByTestId('payout-rows').locator('tbody tr').count()).toBe(50);
    expect(await page.locator('[data-testid="payout-row-state"][data-state="pending"]').count()).toBe(50);
    await page.getByText('Total: 545 TRX + 45 TRX fees').waitFor();

    // A wrong code is refused; the right one starts the file.
    await page.getByTestId('payout-execute').click();
    await page.getByTestId('payout-totp').fill('000000');
    await page.getByTestId('payout-confirm').click();
    await page.getByText('The code is wrong or was already used.').waitFor();
    await page.getByTestId('payout-totp').fill(await nextCode());
    await page.getByTestId('payout-confirm').click();
    await page.getByText('Payouts started').waitFor();

    // The page follows the rows until every one is placed; the internal ones are paid at once.
    await expect
      .poll(() => page.getByTestId('payout-file-state').getAttribute('data-state'), POLL)
      .toBe('executed');
    await expect
      .poll(
        () =>
          page
            .locator('[data-testid="payout-row-state"][data-state="pending"], [data-state="placing"]')
            .count(),
        POLL,
      )
      .toBe(0);
    for (const line of [2, 12, 22, 32, 42])
      expect(
        await page
          .getByTestId(`payout-row-${line}`)
          .getByTestId('payout-row-state')
          .getAttribute('data-state'),
      ).toBe('succeed');
    const progress = await page.getByTestId('payout-progress').textContent();
    expect(progress).toMatch(/Succeeded \d+/);
    const onProgress = blocking(await axeViolations(page));
    expect(onProgress, describeViolations(onProgress)).toEqual([]);

    // The same file again is refused: nothing is paid twice.
    await page.goto('/payouts');
    await choose(fixed);
    await page.getByTestId('payout-check').click();
    await page.getByText('This file was uploaded already: the same file is never paid twice.').waitFor();
    await page.getByRole('link', { name: 'Open the file' }).click();
    await page.waitForURL(fileUrl);
    await context.close();
  });
});
