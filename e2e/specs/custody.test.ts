import { describe, expect, it } from 'vitest';
import { apiLogin, DEMO_PASSWORD } from '../support/accounts.ts';
import { axeViolations, blocking } from '../support/axe.ts';
import { browserAndDatabase, openPage } from '../support/browser.ts';
import { signedInStaff } from '../support/staff.ts';

const spec = browserAndDatabase();

describe('custody in the operator console', () => {
  it('an accountant sees holdings against liabilities and publishes a root; a customer verifies her balance against it', async () => {
    const accountant = await signedInStaff(spec.browser, 'accountant');
    const { page } = accountant;
    await page.getByRole('tab', { name: 'Solvency' }).click();
    // The demo's coins sit in the hot wallets of the simulated chains: read from the chains, per currency.
    const btc = page.getByTestId('admin-solvency-btc');
    await btc.waitFor();
    expect(await btc.textContent()).toMatch(/BTC/);
    // The demo's hot wallets cover what its users are owed, in every coin.
    expect(await page.getByTestId('admin-solvency').textContent()).not.toMatch(/insolvent/i);
    expect(blocking(await axeViolations(page)), 'Solvency').toEqual([]);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('admin-solvency-csv').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/solvency.*\.csv$/);
    await page.getByTestId('admin-solvency-snapshot').click();
    const root = page.getByTestId('admin-solvency-root');
    await root.waitFor();
    expect((await root.textContent())?.trim()).toMatch(/^[0-9a-f]{64}$/);

    // The wallet tiers: each network's hot wallet, read from its chain, and where the cold address is set.
    await page.getByRole('tab', { name: 'Custody' }).click();
    await page.getByTestId('admin-custody-btc-sim').waitFor();
    await page.getByTestId('admin-custody-btc-sim-btc').waitFor();
    await page.getByTestId('admin-custody-tron-sim-usdt').waitFor();
    expect(blocking(await axeViolations(page)), 'Custody').toEqual([]);

    await accountant.context.close();

    // A customer with balances (the demo's Alice): her leaf in the published tree, checked in her browser.
    const alice = await openPage(spec.browser);
    await apiLogin(alice.page, 'alice@example.com', DEMO_PASSWORD);
    await alice.page.goto('/balance');
    const proof = alice.page.getByTestId('solvency-proof');
    await proof.getByRole('button', { name: 'Verify' }).click();
    await proof.locator('[data-verified="true"]').waitFor();
    expect(await proof.textContent()).toMatch(/BTC/);
    await alice.context.close();
  });
});
