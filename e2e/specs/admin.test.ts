import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { activeAccount, apiLogin, latestCode, postFromPage } from '../support/accounts.ts';
import { axeViolations, blocking } from '../support/axe.ts';
import { browserAndDatabase, openPage } from '../support/browser.ts';
import { operator } from '../support/cli.ts';
import { settle } from '../support/settle.ts';
import { signedInStaff } from '../support/staff.ts';
import { enableTwoFactorFromPage, liftWithdrawHold } from '../support/wallet.ts';

const spec = browserAndDatabase();

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2048, 3)]);
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(2048, 5)]);
const POLL = { timeout: 20_000, interval: 250 };

const getJson = <T>(page: Page, path: string) =>
  page.evaluate(async (p) => (await fetch(p, { credentials: 'include' })).json(), path) as Promise<T>;

const staffMember = (role: string) => signedInStaff(spec.browser, role);

describe('the operator console', () => {
  it('a compliance officer approves an applicant with documents shown; two accountants move money with four eyes', async () => {
    // A customer who has sent their documents to the identity provider.
    const { email: customerEmail } = await activeAccount('applicant');
    const customer = await openPage(spec.browser);
    await apiLogin(customer.page, customerEmail);
    const profile = {
      gender: 'female',
      dob: '1991-02-03',
      address: '1 Ring',
      postcode: '1010',
      city: 'Wien',
      country: 'JP',
      btnName: 'proceedBtn',
    };
    expect((await postFromPage(customer.page, '/api/v2/barong/resource/profiles', profile)).status).toBe(201);
    const token = await getJson<{ token: string }>(customer.page, '/api/v2/barong/resource/sumsub/token');
    const submitted = await customer.page.request.post('/kyc-sim/websdk/submit', {
      multipart: {
        access_token: token.token,
        id_doc_type: 'PASSPORT',
        country: 'JPN',
        front: { name: 'passport.jpg', mimeType: 'image/jpeg', buffer: JPEG },
        selfie: { name: 'selfie.png', mimeType: 'image/png', buffer: PNG },
      },
      maxRedirects: 0,
    });
    expect(submitted.status()).toBeLessThan(400);
    const me = await getJson<{ uid: string }>(customer.page, '/api/v2/barong/resource/users/me');

    const compliance = await staffMember('compliance');
    await compliance.page.getByRole('tab', { name: 'Identity' }).click();
    const card = compliance.page.locator(`[data-testid="admin-applicant"][data-uid="${me.uid}"]`);
    await card.waitFor();
    // The document and the selfie are shown, served to staff only and never cached.
    const images = card.locator('img');
    await expect.poll(() => images.count(), POLL).toBe(2);
    const served = await compliance.page.request.get((await images.first().getAttribute('src')) ?? '');
    expect(served.status()).toBe(200);
    expect(served.headers()['cache-control']).toBe('no-store, private');
    await card.getByLabel('Reason').fill('document and selfie match');
    await card.getByRole('button', { name: 'Approve' }).click();
    await compliance.page.getByText('Decision sent to the provider.').waitFor();

    const a1 = await staffMember('accountant');
    const a2 = await staffMember('accountant');
    await a1.page.getByRole('tab', { name: 'Adjustments' }).click();
    await a1.page.getByLabel('User UID').fill(me.uid);
    await a1.page.getByLabel('Amount (negative debits)').fill('12.5');
    await a1.page.getByLabel('Reason').fill('welcome bonus');
    await a1.page.getByRole('button', { name: 'Propose' }).click();
    await a1.page.getByText('Proposed; a second staff member must approve it.').waitFor();
    // The proposer has no Approve button on their own proposal; the second accountant has.
    const own = a1.page.locator('[data-testid="admin-adjustment"]', { hasText: customerEmail });
    await own.waitFor();
    expect(await own.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    await a2.page.getByRole('tab', { name: 'Adjustments' }).click();
    const row = a2.page.locator('[data-testid="admin-adjustment"]', { hasText: customerEmail });
    await row.getByRole('button', { name: 'Approve' }).click();
    await a2.page
      .locator('[data-testid="admin-adjustment"][data-state="accepted"]', { hasText: customerEmail })
      .waitFor();
    // An adjustment of the second accountant's own account: she is told why she cannot decide it, and the
    // console offers her no button (the server refuses it: admin.user.own_account); nor may she propose one.
    const a2uid = (await getJson<{ uid: string }>(a2.page, '/api/v2/admin/me')).uid;
    await a1.page.getByLabel('User UID').fill(a2uid);
    await a1.page.getByLabel('Amount (negative debits)').fill('1000');
    await a1.page.getByLabel('Reason').fill('credit to a colleague');
    await a1.page.getByRole('button', { name: 'Propose' }).click();
    await a1.page
      .locator('[data-testid="admin-adjustment"][data-state="proposed"]', { hasText: a2.email })
      .waitFor();
    await a2.page.getByRole('tab', { name: 'Trail' }).click();
    await a2.page.getByRole('tab', { name: 'Adjustments' }).click();
    const mine = a2.page.locator('[data-testid="admin-adjustment"][data-state="proposed"]', {
      hasText: a2.email,
    });
    await mine.getByTestId('admin-own-account').waitFor();
    expect(await mine.getByRole('button').count()).toBe(0);
    await a2.page.getByLabel('User UID').fill(a2uid);
    // The form says so too, beside the row's note.
    await expect.poll(() => a2.page.getByTestId('admin-own-account').count(), POLL).toBe(2);
    expect(await a2.page.getByRole('button', { name: 'Propose' }).isDisabled()).toBe(true);
    await a2.page.getByLabel('User UID').fill('');

    // The customer sees both: identity verified, and the credit in their balance and history.
    await expect
      .poll(
        async () =>
          (await getJson<{ level: number }>(customer.page, '/api/v2/barong/resource/users/me')).level,
        POLL,
      )
      .toBe(3);
    await customer.page.goto('/settings');
    await customer.page.getByTestId('kyc-status').getByText('Verified').waitFor(POLL);
    const balances = await getJson<{ currency: string; balance: string }[]>(
      customer.page,
      '/api/v2/peatio/account/balances',
    );
    expect(balances.find((b) => b.currency === 'usdt')?.balance).toBe('12.5');
    const history = await getJson<{ amount: string; state: string }[]>(
      customer.page,
      '/api/v2/peatio/account/adjustments',
    );
    expect(history).toEqual([expect.objectContaining({ amount: '12.5', state: 'accepted' })]);

    // The trail shows it all, to any staff member.
    await a2.page.getByRole('tab', { name: 'Trail' }).click();
    for (const action of ['kyc.approve', 'adjustment.propose', 'adjustment.approve'])
      await a2.page.getByTestId('admin-trail').getByText(action, { exact: true }).first().waitFor();
    // Filtered by an action, only that action's lines are left.
    await a2.page.getByLabel('Action (e.g. withdrawal.reject)').fill('adjustment.approve');
    await a2.page.getByRole('button', { name: 'Filter' }).click();
    await a2.page.getByTestId('admin-trail').getByText('adjustment.propose', { exact: true }).waitFor({
      state: 'detached',
    });
    await a2.page
      .getByTestId('admin-trail')
      .getByText('adjustment.approve', { exact: true })
      .first()
      .waitFor();
    // The console's screens meet WCAG 2.1 AA as the customer's do (issue #19).
    // (once the toasts, which fade in and out, are gone: axe measures a fading text's contrast as it is drawn)
    const toasts = (page: Page) => page.locator('.mantine-Notification-root').count();
    for (const page of [a2.page, compliance.page]) await expect.poll(() => toasts(page), POLL).toBe(0);
    for (const tab of ['Users', 'Adjustments', 'Trail']) {
      await settle(a2.page, () => a2.page.getByRole('tab', { name: tab }).click());
      expect(blocking(await axeViolations(a2.page)), tab).toEqual([]);
    }
    expect(blocking(await axeViolations(compliance.page)), 'Identity').toEqual([]);
    // A customer's spec.browser gets nothing of the console.
    await customer.page.goto('/admin');
    await customer.page.getByTestId('admin-refused').waitFor();
    for (const c of [customer, compliance, a1, a2]) await c.context.close();
  });

  it('a technician switches a market off and on; an accountant sees the ledger audited and downloads it', async () => {
    const tech = await staffMember('technical');
    // The console's home: the health of each component, and the rate charts described in words.
    const health = tech.page.getByTestId('admin-health');
    await health.getByText('database').waitFor();
    await health.getByText('withdrawals').waitFor();
    await tech.page.getByRole('img', { name: /HTTP requests per second: now .*\/s, peak/ }).waitFor();
    expect(blocking(await axeViolations(tech.page)), 'Dashboard').toEqual([]);
    await tech.page.getByRole('tab', { name: 'Markets' }).click();
    const market = (state: string) =>
      tech.page.locator(`[data-testid="admin-market"][data-market="trxusdt"][data-state="${state}"]`);
    await market('enabled').getByRole('button', { name: 'Disable' }).click();
    await market('disabled').getByRole('button', { name: 'Enable' }).click();
    await market('enabled').waitFor();
    const toasts = () => tech.page.locator('.mantine-Notification-root').count();
    await expect.poll(toasts, POLL).toBe(0);
    expect(blocking(await axeViolations(tech.page)), 'Markets').toEqual([]);
    await tech.page.getByRole('tab', { name: 'Networks' }).click();
    await tech.page.getByTestId('admin-network').first().waitFor();
    expect(blocking(await axeViolations(tech.page)), 'Networks').toEqual([]);

    const accountant = await staffMember('accountant');
    await accountant.page.getByRole('tab', { name: 'Ledger' }).click();
    await accountant.page.locator('[data-testid="admin-ledger-audit"][data-clean="true"]').waitFor();
    expect(blocking(await axeViolations(accountant.page)), 'Ledger').toEqual([]);
    const [download] = await Promise.all([
      accountant.page.waitForEvent('download'),
      accountant.page.getByTestId('admin-ledger-csv').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^ledger-\d{4}-\d{2}-\d{2}\.csv$/);
    for (const c of [tech, accountant]) await c.context.close();
  });

  it('a withdrawal above the limit waits for review: rejected, the customer sees why and has the funds back; approved, it goes', async () => {
    // A verified customer (level 3), funded, with 2FA.
    const { email } = await activeAccount('review');
    const customer = await openPage(spec.browser);
    await apiLogin(customer.page, email);
    const nextCode = await enableTwoFactorFromPage(customer.page);
    await spec.db.query('update users set level = 3 where email = $1', [email]);
    await liftWithdrawHold(spec.db, email);
    expect(await operator('adjust', email, 'trx', '50', 'e2e funds')).toContain('accepted');
    // A saved address: another customer's deposit address (settled inside the exchange).
    const { email: payeeEmail } = await activeAccount('payee');
    const payee = await openPage(spec.browser);
    await apiLogin(payee.page, payeeEmail);
    const { address } = await getJson<{ address: string }>(
      payee.page,
      '/api/v2/peatio/account/deposit_address/trx?blockchain_key=tron-sim',
    );
    const peatio = (path: string, body: unknown, method?: string) =>
      postFromPage(customer.page, `/api/v2/peatio/account${path}`, body, method);
    const saved = await peatio('/beneficiaries', {
      name: 'Payee',
      currency: 'trx',
      blockchain_key: 'tron-sim',
      data: { address },
    });
    const beneficiary = (saved.body as { id: number }).id;
    const pin = await latestCode(email);
    expect((await peatio(`/beneficiaries/${beneficiary}/activate`, { pin }, 'PATCH')).status).toBe(200);
    const withdraw = async () => {
      const res = await peatio('/withdraws', {
        amount: '20',
        otp: await nextCode(),
        beneficiary_id: beneficiary,
        currency: 'trx',
        blockchain_key: 'tron-sim',
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body as { id: number; state: string };
    };

    // Compliance sets 15 TRX per withdrawal for level 3 in the console (other tests withdraw at most 10).
    const compliance = await staffMember('compliance');
    const page = compliance.page;
    await page.getByRole('tab', { name: 'Withdrawals' }).click();
    await page.getByLabel('Level', { exact: true }).fill('3');
    await page.getByLabel('Currency', { exact: true }).fill('trx');
    await page.getByLabel('Per withdrawal', { exact: true }).fill('15');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('admin-withdraw-limits').getByRole('cell', { name: '15', exact: true }).waitFor();

    expect((await withdraw()).state).toBe('under_review');
    await page.getByRole('tab', { name: 'Trail' }).click();
    await page.getByRole('tab', { name: 'Withdrawals' }).click();
    const held = page.locator('[data-testid="admin-withdrawal"]', { hasText: email });
    await held.getByText('Above the per-withdrawal limit').waitFor();
    // The reason is required before a rejection leaves the spec.browser (the shared schema).
    await held.getByRole('button', { name: 'Reject' }).click();
    await page.getByText('A reason is required.').waitFor();
    await held
      .getByLabel('Reason (shown to the user if rejected)')
      .fill('Please verify this address with support');
    await held.getByRole('button', { name: 'Reject' }).click();
    await held.waitFor({ state: 'detached' });

    // The customer sees it rejected, with the reason, and the 50 TRX back.
    await customer.page.goto('/history/account');
    await customer.page.getByRole('tab', { name: 'Withdraw' }).click();
    await customer.page.getByTestId('history-status').getByText('Rejected').waitFor(POLL);
    await customer.page
      .getByTestId('history-note')
      .getByText('Please verify this address with support')
      .waitFor();
    const trx = async () =>
      (
        await getJson<{ currency: string; balance: string }[]>(
          customer.page,
          '/api/v2/peatio/account/balances',
        )
      ).find((b) => b.currency === 'trx')?.balance;
    expect(await trx()).toBe('50');

    // The next one is approved, and settles.
    await withdraw();
    await page.getByRole('tab', { name: 'Trail' }).click();
    await page.getByRole('tab', { name: 'Withdrawals' }).click();
    await page
      .locator('[data-testid="admin-withdrawal"]', { hasText: email })
      .getByRole('button', { name: 'Approve' })
      .click();
    await customer.page.reload();
    await customer.page.getByRole('tab', { name: 'Withdraw' }).click();
    await customer.page.getByTestId('history-status').getByText('Succeed').waitFor(POLL);
    expect(await trx()).toBe('30');
    expect(blocking(await axeViolations(page)), 'Withdrawals').toEqual([]);

    // The limit goes again (both amounts empty).
    await page.getByLabel('Currency', { exact: true }).fill('trx');
    await page.getByLabel('Per withdrawal', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await page
      .getByTestId('admin-withdraw-limits')
      .getByRole('cell', { name: '15', exact: true })
      .waitFor({ state: 'detached' });
    for (const c of [customer, payee, compliance]) await c.context.close();
  });
});
