import { describe, expect, it } from 'vitest';
import { activeAccount, apiLogin } from '../support/accounts.ts';
import { browserAndDatabase, openPage } from '../support/browser.ts';
import { signedInStaff } from '../support/staff.ts';

const spec = browserAndDatabase();
const POLL = { timeout: 30_000, interval: 500 };

// Issue 33, item 4: a deposit from another provider that came without the originator's information is held; the
// console's Travel rule tab lists it with the sender and the provider, and compliance releases it with a reason.
describe('deposits held under the travel rule, in the console', () => {
  it('a compliance officer sees a held deposit and releases it: it is credited', async () => {
    const { email } = await activeAccount('held-deposit');
    const customer = await openPage(spec.browser);
    await apiLogin(customer.page, email);
    // Held as the deposit watcher leaves one when the window runs out (no block: the watcher leaves it alone).
    const id = (
      await spec.db.query(
        `insert into deposits (user_id, currency_id, blockchain_key, address, txid, txout, amount, from_address,
                               travel_rule_status, travel_rule)
         select u.id, 'trx', 'tron-sim', 'TOurDepositAddress', 'e2e-held-' || u.id, 0, 25, 'TSenderAtNordwind',
                'held', '{"provider_id":"nordwind","provider_name":"Nordwind Digital Assets AB (fictional)","payload":null}'::jsonb
           from users u where u.email = $1
         returning id::int`,
        [email],
      )
    ).rows[0].id as number;

    // The customer's history says it waits for the sender's information.
    await customer.page.goto('/history/account');
    const waiting = customer.page.getByTestId('history-row').filter({ hasText: '25' }).first();
    await waiting.waitFor();
    await expect
      .poll(() => waiting.getByTestId('history-message').textContent(), POLL)
      .toContain('Waiting for the sender’s information');
    await customer.context.close();

    const { page } = await signedInStaff(spec.browser, 'compliance');
    await page.getByRole('tab', { name: 'Travel rule' }).click();
    const item = page.getByTestId('admin-travel-rule-deposit').filter({ hasText: email });
    await item.waitFor();
    await expect.poll(() => item.textContent()).toContain('25 TRX on tron-sim');
    expect(await item.textContent()).toContain(
      'From TSenderAtNordwind (Nordwind Digital Assets AB (fictional)) to TOurDepositAddress',
    );
    expect(await item.textContent()).toContain('No record received');
    await item.getByTestId('travel-rule-reason').fill('Originator confirmed by Nordwind');
    await item.getByTestId('travel-rule-release').click();
    await item.waitFor({ state: 'detached' });
    const row = (
      await spec.db.query(
        `select d.state, d.travel_rule_status, d.travel_rule_note, d.credited_at is not null as credited,
                s.email as decided_by
           from deposits d join users s on s.id = d.travel_rule_decided_by where d.id = $1`,
        [id],
      )
    ).rows[0];
    expect(row).toMatchObject({
      // The collector may have looked at it already (this made-up address has no key: it skips it).
      state: expect.stringMatching(/^(accepted|skipped)$/),
      travel_rule_status: 'released',
      travel_rule_note: 'Originator confirmed by Nordwind',
      credited: true,
    });
    // Listed under Released, with who decided it.
    await page
      .locator('label')
      .filter({ hasText: /^Released$/ })
      .click();
    const released = page.getByTestId('admin-travel-rule-deposit').filter({ hasText: email });
    await expect.poll(() => released.textContent(), POLL).toContain(`Decided by ${row.decided_by}`);
  });

  it('lists a deposit credited unchecked (the service was unreachable) under its own filter', async () => {
    const { email } = await activeAccount('unchecked');
    // As the watcher marks one (no block, so the watcher leaves this made-up row alone; nothing is credited).
    await spec.db.query(
      `insert into deposits (user_id, currency_id, blockchain_key, address, txid, txout, amount, from_address,
                             travel_rule_status, travel_rule)
       select u.id, 'trx', 'tron-sim', 'TOurUncheckedAddress', 'e2e-unchecked-' || u.id, 0, 7, 'TSomeSender',
              'unchecked', '{"detail":"connect ECONNREFUSED"}'::jsonb
         from users u where u.email = $1`,
      [email],
    );
    const { page } = await signedInStaff(spec.browser, 'compliance');
    await page.getByRole('tab', { name: 'Travel rule' }).click();
    await page
      .locator('label')
      .filter({ hasText: /^Not checked$/ })
      .click();
    const item = page.getByTestId('admin-travel-rule-deposit').filter({ hasText: email });
    await expect.poll(() => item.textContent(), POLL).toContain('7 TRX on tron-sim');
    expect(await item.getByTestId('travel-rule-record').textContent()).toContain(
      'the travel-rule service could not be reached',
    );
    // Nothing to decide: it was credited.
    expect(await item.getByTestId('travel-rule-release').count()).toBe(0);
  });
});
