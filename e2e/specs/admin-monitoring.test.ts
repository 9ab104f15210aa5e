import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { activeAccount, apiLogin } from '../support/accounts.ts';
import { browserAndDatabase, openPage } from '../support/browser.ts';
import { signedInStaff } from '../support/staff.ts';
import { depositFromFaucet } from '../support/wallet.ts';

const spec = browserAndDatabase();
const POLL = { timeout: 60_000, interval: 1000 };

const getJson = <T>(page: Page, path: string) =>
  page.evaluate(async (p) => (await fetch(p, { credentials: 'include' })).json(), path) as Promise<T>;

describe('transaction monitoring in the console', () => {
  it('a large deposit opens an alert; compliance reports it with its deadline and downloads the report', async () => {
    const { email } = await activeAccount('monitored');
    const customer = await openPage(spec.browser);
    await apiLogin(customer.page, email);
    // 20,000 USDT is worth at least EUR 15,000 at the demo's EUR per USDT.
    await depositFromFaucet(customer.page, 'usdt', 'tron-sim', '20000');
    await customer.context.close();

    const officer = await signedInStaff(spec.browser, 'compliance');
    const page = officer.page;
    // The monitor runs in the background (AML_MONITOR_INTERVAL_MS): wait for its alert, then open the tab.
    await expect
      .poll(async () => {
        const alerts = await getJson<{ email: string; rule: string }[]>(
          page,
          '/api/v2/admin/monitoring/alerts?limit=1000',
        );
        return alerts.filter((a) => a.email === email).map((a) => a.rule);
      }, POLL)
      .toContain('threshold.single');
    await page.getByRole('tab', { name: 'Monitoring' }).click();
    const card = page
      .locator('[data-testid="admin-monitoring-alert"]', {
        hasText: 'One operation of EUR 15,000 or more',
      })
      .filter({ hasText: email });
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
    await officer.context.close();
  });
});
