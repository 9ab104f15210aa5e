import { describe, expect, it } from 'vitest';
import { activeAccount, apiLogin, latestCode, PASSWORD, postFromPage } from '../support/accounts.ts';
import { browserAndDatabase, openPage } from '../support/browser.ts';
import { submitCredentials } from '../support/login.ts';
import {
  balanceOf,
  depositAddress,
  depositFromFaucet,
  getFromPage,
  withdrawReady,
} from '../support/wallet.ts';

/**
 * Settings › Close account (issue 31, part 4) in Chromium, with a fresh user: the remaining TRX goes to an
 * activated address of theirs (another user's deposit address here, so it settles at once), the account closes,
 * the session ends, and the login screen refuses the account.
 */
const spec = browserAndDatabase();
const POLL = { timeout: 20_000 };

describe('Settings › Close account', () => {
  it('withdraws the balance to a chosen address, closes the account, and the login is refused', async () => {
    const { email } = await activeAccount('closure');
    const { email: friendEmail } = await activeAccount('closepal');
    const friend = await openPage(spec.browser);
    await apiLogin(friend.page, friendEmail);
    const friendAddress = await depositAddress(friend.page, 'trx', 'tron-sim');

    const { context, page } = await openPage(spec.browser);
    await apiLogin(page, email);
    const nextCode = await withdrawReady(page, spec.db, email);
    await depositFromFaucet(page, 'trx', 'tron-sim', '30');
    const created = await postFromPage(page, '/api/v2/peatio/account/beneficiaries', {
      name: 'Friend',
      currency: 'trx',
      blockchain_key: 'tron-sim',
      data: { address: friendAddress },
    });
    expect(created.status).toBe(201);
    const { id } = created.body as { id: number };
    const activated = await postFromPage(
      page,
      `/api/v2/peatio/account/beneficiaries/${id}/activate`,
      { pin: await latestCode(email) },
      'PATCH',
    );
    expect(activated.status).toBe(200);

    await page.goto('/settings');
    const section = page.getByTestId('close-account-section');
    await section.getByTestId('closure-row-trx').waitFor();
    expect(await section.getByTestId('closure-row-trx').textContent()).toContain('30');

    // A wrong password is refused in the dialog, and nothing happens.
    await section.getByTestId('closure-address-trx').click();
    await page.getByRole('option', { name: `Friend · ${friendAddress}` }).click();
    await section.getByTestId('closure-start').click();
    await page.getByTestId('closure-password').fill('Not-the-pass1');
    await page.getByTestId('closure-otp').fill(await nextCode());
    await page.getByTestId('closure-confirm').click();
    await page.getByTestId('closure-error').getByText('Incorrect password').waitFor();

    // The right password and a fresh code: the balance goes, the account closes, the session ends.
    await page.getByTestId('closure-password').fill(PASSWORD);
    await page.getByTestId('closure-otp').fill(await nextCode());
    await page.getByTestId('closure-confirm').click();
    await page.waitForURL((url) => url.pathname === '/login', POLL);
    await page.getByText('Your account is closed.', { exact: false }).waitFor();
    await expect.poll(() => balanceOf(friend.page, 'trx'), POLL).toBe(30);

    // The old session is over, and the account can no longer log in.
    const me = await getFromPage<{ errors?: string[] }>(page, '/api/v2/barong/resource/users/me');
    expect(me.errors).toEqual(['authz.invalid_session']);
    await submitCredentials(page, email);
    await page.getByText('Your account is not active.').first().waitFor();
    const closed = await spec.db.query(
      `select c.state, c.records_erase_at > c.closed_at + interval '7 years' as kept
         from account_closures c join users u on u.id = c.user_id where u.email = $1`,
      [email],
    );
    expect(closed.rows).toEqual([{ state: 'closed', kept: true }]);
    await context.close();
    await friend.context.close();
  });
});
