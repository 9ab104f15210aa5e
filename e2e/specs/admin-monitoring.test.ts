import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { TronWeb } from 'tronweb';
import { describe, expect, it } from 'vitest';
import { activeAccount, apiLogin, latestCode, postFromPage } from '../support/accounts.ts';
import { browserAndDatabase, openPage } from '../support/browser.ts';
import { signedInStaff } from '../support/staff.ts';
import { depositFromFaucet, withdrawReady } from '../support/wallet.ts';

const spec = browserAndDatabase();
const POLL = { timeout: 60_000, interval: 1000 };

const getJson = <T>(page: Page, path: string) =>
  page.evaluate(async (p) => (await fetch(p, { credentials: 'include' })).json(), path) as Promise<T>;

describe('transaction monitoring in the console', () => {
  it('a large deposit opens alerts; compliance closes one as a false positive, reports the other with its deadline, suspends a withdrawal and downloads the report', async () => {
    const { email } = await activeAccount('monitored');
    const customer = await openPage(spec.browser);
    await apiLogin(customer.page, email);
    // 20,000 USDT is worth at least EUR 15,000 at the demo's EUR per USDT; the customer is not identified (level 2).
    await depositFromFaucet(customer.page, 'usdt', 'tron-sim', '20000');

    const officer = await signedInStaff(spec.browser, 'compliance');
    const page = officer.page;
    // The monitor runs in the background (AML_MONITOR_INTERVAL_MS): wait for its alerts, then open the tab.
    await expect
      .poll(async () => {
        const alerts = await getJson<{ email: string; rule: string }[]>(
          page,
          '/api/v2/admin/monitoring/alerts?limit=1000',
        );
        return alerts
          .filter((a) => a.email === email)
          .map((a) => a.rule)
          .sort();
      }, POLL)
      .toEqual(['threshold.identification', 'threshold.single']);
    await page.getByRole('tab', { name: 'Monitoring' }).click();
    const alertCard = (rule: string) =>
      page.locator('[data-testid="admin-monitoring-alert"]', { hasText: rule }).filter({ hasText: email });

    // The identification alert: the officer knows the customer is being verified, and closes it as a false positive.
    const identification = alertCard('EUR 1,000 or more without verified identity');
    await identification.waitFor();
    await identification
      .getByLabel('Reason (false positive) or grounds for suspicion (report)')
      .fill('Identity verification under way, documents received');
    await identification.getByRole('button', { name: 'False positive' }).click();
    await identification.waitFor({ state: 'detached' });
    await page.getByTestId('admin-monitoring-filter').getByText('False positives').click();
    const closed = alertCard('EUR 1,000 or more without verified identity');
    await expect
      .poll(() => closed.textContent(), POLL)
      .toContain('Decision: Identity verification under way, documents received');
    await page.getByTestId('admin-monitoring-filter').getByText('Open').click();

    const card = alertCard('One operation of EUR 15,000 or more');
    await card.waitFor();
    await card
      .getByLabel('Reason (false positive) or grounds for suspicion (report)')
      .fill('Source of funds unknown');
    await card.getByRole('button', { name: 'Report to the FIU' }).click();

    // The report is listed under "Reported" with its deadline and downloads.
    await page.getByTestId('admin-monitoring-filter').getByText('Reported').click();
    const reported = page.locator('[data-testid="admin-monitoring-alert"]', { hasText: email });
    const due = reported.getByTestId('admin-monitoring-due');
    await due.waitFor();
    expect(await due.textContent()).toMatch(/^Due /);
    const href = await reported.getByTestId('admin-monitoring-export-json').getAttribute('href');
    const exported = await page.request.get(href ?? '');
    expect(exported.status()).toBe(200);
    const data = await exported.json();
    expect(data.subject.email).toBe(email);
    expect(data.alert.rule).toBe('threshold.single');
    expect(data.operations[0]).toMatchObject({ kind: 'deposit', currency: 'usdt', amount: '20000' });

    // The customer's risk class went up with the report.
    const row = page.locator('[data-testid="admin-risk-row"]', { hasText: email });
    await row.getByText('High').waitFor();

    // The customer withdraws 16,000 USDT; above a per-withdrawal limit (set for this test only) it waits for
    // review, and the officer suspends it from the report.
    await spec.db.query(
      `insert into withdraw_limits (level, currency_id, per_withdrawal) values (3, 'usdt', 15000)
       on conflict (level, currency_id) do update set per_withdrawal = excluded.per_withdrawal`,
    );
    try {
      const nextCode = await withdrawReady(customer.page, spec.db, email);
      const address = TronWeb.address.fromPrivateKey(randomBytes(32).toString('hex')) as string;
      const account = (path: string, body: unknown, method?: string) =>
        postFromPage(customer.page, `/api/v2/peatio/account${path}`, body, method);
      const saved = await account('/beneficiaries', {
        name: 'Elsewhere',
        currency: 'usdt',
        blockchain_key: 'tron-sim',
        data: { address },
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(201);
      const beneficiary = (saved.body as { id: number }).id;
      const pin = await latestCode(email);
      expect((await account(`/beneficiaries/${beneficiary}/activate`, { pin }, 'PATCH')).status).toBe(200);
      const placed = await account('/withdraws', {
        amount: '16000',
        otp: await nextCode(),
        beneficiary_id: beneficiary,
        currency: 'usdt',
        blockchain_key: 'tron-sim',
      });
      expect(placed.status, JSON.stringify(placed.body)).toBe(201);
      const withdrawal = placed.body as { id: number; state: string };
      expect(withdrawal.state).toBe('under_review');

      await reported.getByTestId('admin-monitoring-withdrawal').fill(String(withdrawal.id));
      await reported.getByTestId('admin-monitoring-suspend').click();
      await reported.getByText(`Withdrawal ${withdrawal.id} suspended until`).waitFor();
      const held = (
        await spec.db.query(
          `select w.state, w.review_reasons, s.until > now() + interval '9 days' as long_enough
             from withdrawals w join aml_suspensions s on s.withdrawal_id = w.id where w.id = $1`,
          [withdrawal.id],
        )
      ).rows;
      // Ten business days are at least 12 calendar days; more than nine in any case.
      expect(held).toEqual([
        {
          state: 'under_review',
          review_reasons: ['limit.per_withdrawal', 'aml.suspended'],
          long_enough: true,
        },
      ]);
    } finally {
      await spec.db.query(`delete from withdraw_limits where level = 3 and currency_id = 'usdt'`);
    }
    await customer.context.close();
    await officer.context.close();
  });
});
