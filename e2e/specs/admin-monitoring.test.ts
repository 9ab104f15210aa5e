import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { TronWeb } from 'tronweb';
import { describe, expect, it } from 'vitest';
import { activeAccount, apiLogin, latestCode, postFromPage } from '../support/accounts.ts';
import { browserAndDatabase, openPage } from '../support/browser.ts';
import { signedInStaff } from '../support/staff.ts';
import { suiteApp } from '../support/suite-app.ts';
import { balanceOf, depositFromFaucet, getFromPage, withdrawReady } from '../support/wallet.ts';

const spec = browserAndDatabase();
const POLL = { timeout: 60_000, interval: 1000 };

const getJson = <T>(page: Page, path: string) =>
  page.evaluate(async (p) => (await fetch(p, { credentials: 'include' })).json(), path) as Promise<T>;

/** A company's SEPA transfer into the collection account, "sent" at the simulated bank's developer endpoint. */
async function sendAtBank(reference: string, amount: string, debtorIban: string): Promise<void> {
  const row = (await spec.db.query(`select value from app_secrets where name = 'bank_simulator'`)).rows[0];
  const { apiUsername, apiPassword } = JSON.parse(row.value) as { apiUsername: string; apiPassword: string };
  const response = await fetch(`${suiteApp().baseUrl}/bank-sim/v1/incoming-transfers`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'idempotency-key': `e2e-monitoring-${Date.now()}-${Math.floor(Math.random() * 1e6)}`,
      authorization: `Basic ${Buffer.from(`${apiUsername}:${apiPassword}`).toString('base64')}`,
    },
    body: JSON.stringify({
      amount,
      debtor_name: 'Payer',
      debtor_iban: debtorIban,
      remittance_information: reference,
    }),
  });
  expect(response.status).toBe(201);
}

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
  it('bank transfers from a high-risk country and linked ones reaching EUR 15,000 show as their rules; compliance decides each', async () => {
    const { email } = await activeAccount('linked');
    const customer = await openPage(spec.browser);
    await apiLogin(customer.page, email);
    // Business registration is built elsewhere: the account is made a verified business directly.
    await spec.db.query(`update users set account_type = 'business', level = 3 where email = $1`, [email]);
    const { reference } = await getFromPage<{ reference: string }>(
      customer.page,
      '/api/v2/peatio/account/bank_deposit',
    );
    // EUR 10,000 from an Iranian bank (IR is on AML_HIGH_RISK_COUNTRIES by default), then EUR 5,000 from France:
    // together EUR 15,000 within the linked window (7 days), neither alone.
    await sendAtBank(reference, '10000', 'IR580540105180021273113007');
    await expect.poll(() => balanceOf(customer.page, 'eur'), POLL).toBe(10000);
    await sendAtBank(reference, '5000', 'FR1420041010050500013M02606');
    await customer.context.close();

    const officer = await signedInStaff(spec.browser, 'compliance');
    const page = officer.page;
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
      .toEqual(['territory.high_risk', 'threshold.linked']);
    await page.getByRole('tab', { name: 'Monitoring' }).click();
    const alertCard = (label: string) =>
      page.locator('[data-testid="admin-monitoring-alert"]', { hasText: label }).filter({ hasText: email });

    const territory = alertCard('High-risk territory');
    await territory.waitFor();
    expect(await territory.textContent()).toContain('EUR 10000');
    expect(await territory.getByTestId('admin-monitoring-facts').textContent()).toContain('country: IR');
    const linked = alertCard('Linked operations reaching EUR 15,000');
    await linked.waitFor();
    expect(await linked.getByTestId('admin-monitoring-facts').textContent()).toContain(
      'window_total_eur: 15000',
    );

    // The territory: the customer's Iranian supplier is documented (enhanced due diligence done): false positive.
    await territory
      .getByLabel('Reason (false positive) or grounds for suspicion (report)')
      .fill('Refund from a documented supplier; enhanced due diligence on file');
    await territory.getByRole('button', { name: 'False positive' }).click();
    await territory.waitFor({ state: 'detached' });
    // The split: no plain reason, so it is reported.
    await linked
      .getByLabel('Reason (false positive) or grounds for suspicion (report)')
      .fill('Split transfers, one from a high-risk country, no business reason given');
    await linked.getByRole('button', { name: 'Report to the FIU' }).click();
    await linked.waitFor({ state: 'detached' });
    await page.getByTestId('admin-monitoring-filter').getByText('Reported').click();
    await alertCard('Linked operations reaching EUR 15,000').getByTestId('admin-monitoring-due').waitFor();
    const decided = (
      await spec.db.query(
        `select a.rule, a.state from aml_alerts a join users u on u.id = a.user_id where u.email = $1 order by a.rule`,
        [email],
      )
    ).rows;
    expect(decided).toEqual([
      { rule: 'territory.high_risk', state: 'closed' },
      { rule: 'threshold.linked', state: 'escalated' },
    ]);
    await officer.context.close();
  });
});
