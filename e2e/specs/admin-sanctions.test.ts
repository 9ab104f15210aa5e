import { describe, expect, it } from 'vitest';
import { activeAccount, apiLogin, postFromPage } from '../support/accounts.ts';
import { browserAndDatabase, openPage } from '../support/browser.ts';
import { signedInStaff } from '../support/staff.ts';
import { withdrawReady } from '../support/wallet.ts';

const spec = browserAndDatabase();
const POLL = { timeout: 30_000, interval: 500 };

// Issue 33, item 3: a customer whose name is on the (made-up, demo) sanctions list appears in the console's
// Sanctions tab with what matched; compliance clears it as a false positive with a reason.
describe('sanctions screening in the console', () => {
  it('a compliance officer sees the hit with the list entry and the score, and clears it', async () => {
    const { email } = await activeAccount('sanctioned');
    const customer = await openPage(spec.browser);
    await apiLogin(customer.page, email);
    const profile = {
      first_name: 'Fictivenko',
      last_name: 'Borislav',
      gender: 'male',
      dob: '1980-01-01',
      address: '1 Example street',
      postcode: '1010',
      city: 'Wien',
      country: 'AT',
    };
    expect((await postFromPage(customer.page, '/api/v2/barong/resource/profiles', profile)).status).toBe(201);
    // The screening job picks the changed name up within seconds.
    await expect
      .poll(
        async () =>
          (
            await spec.db.query(
              `select count(*)::int as n from sanctions_hits h join users u on u.id = h.user_id where u.email = $1`,
              [email],
            )
          ).rows[0].n,
        POLL,
      )
      .toBe(1);

    // The customer's withdraw screen says why there is no form: the freeze, not a verification step.
    await withdrawReady(customer.page, spec.db, email);
    await customer.page.goto('/deposit_withdraw');
    await customer.page.getByTestId('tab-withdraw').click();
    const frozen = customer.page.getByTestId('withdraw-frozen');
    await frozen.waitFor();
    expect(await frozen.textContent()).toBe(
      'Withdrawals and transfers are paused while our compliance team reviews your account. Please contact support.',
    );
    expect(await customer.page.getByTestId('withdraw-amount').count()).toBe(0);

    const { page } = await signedInStaff(spec.browser, 'compliance');
    await page.getByRole('tab', { name: 'Sanctions' }).click();
    await page.getByTestId('admin-sanctions-list').getByText('demo-list.xml', { exact: false }).waitFor();
    const hit = page.getByTestId('admin-sanctions-hit').filter({ hasText: email });
    await hit.waitFor();
    await expect.poll(() => hit.textContent()).toContain('Customer: “Fictivenko Borislav”');
    await expect.poll(() => hit.textContent()).toContain('EU.DEMO.1');
    expect(await hit.getByTestId('sanctions-score').textContent()).toMatch(/^Score (8[89]|9\d|100)$/);

    await hit.getByTestId('sanctions-reason').fill('Different date of birth than the listed person');
    await hit.getByTestId('sanctions-false-positive').click();
    await hit.waitFor({ state: 'detached' });
    const decided = (
      await spec.db.query(
        `select h.state, h.reason from sanctions_hits h join users u on u.id = h.user_id where u.email = $1`,
        [email],
      )
    ).rows[0];
    expect(decided).toEqual({
      state: 'false_positive',
      reason: 'Different date of birth than the listed person',
    });
    // Decided, it is listed under "False positive" with who decided it.
    await page
      .locator('label')
      .filter({ hasText: /^False positive$/ })
      .click();
    const cleared = page.getByTestId('admin-sanctions-hit').filter({ hasText: email });
    await expect.poll(() => cleared.textContent(), POLL).toContain('Different date of birth');
    // Cleared, the customer's withdraw form is back.
    await customer.page.reload();
    await customer.page.getByTestId('tab-withdraw').click();
    await customer.page.getByTestId('withdraw-amount').waitFor();
    expect(await frozen.count()).toBe(0);
  });
});
