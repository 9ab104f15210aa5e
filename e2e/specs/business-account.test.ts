import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { barong, latestCode, PASSWORD, postFromPage, unique } from '../support/accounts.ts';
import { browserAndDatabase, openPage } from '../support/browser.ts';
import { solveCaptcha } from '../support/captcha.ts';
import { operator } from '../support/cli.ts';
import { loginWithEmailCode } from '../support/login.ts';
import { signedInStaff } from '../support/staff.ts';

const spec = browserAndDatabase();

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2048, 3)]);
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(2048, 5)]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const POLL = { timeout: 20_000, interval: 250 };

const getJson = <T>(page: Page, path: string) =>
  page.evaluate(async (p) => (await fetch(p, { credentials: 'include' })).json(), path) as Promise<T>;
const me = (page: Page) =>
  getJson<{ uid: string; level: number; account_type: string; labels: { key: string; value: string }[] }>(
    page,
    '/api/v2/barong/resource/users/me',
  );
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

describe('business accounts', () => {
  it('registers as a business, enters the company, and reaches level 3 once the company and its representative are verified', async () => {
    const { context, page } = await openPage(spec.browser);
    const email = `biz${unique()}@example.com`;
    const mobile = `9${unique().slice(-9)}`;

    // Registration: Business chosen on the form.
    await page.goto('/register');
    await page.getByText('Enter the details as per the valid legal documents').waitFor();
    await page.getByTestId('register-account-type').getByText('Business').click();
    await page.getByLabel('First name').fill('Asha');
    await page.getByLabel('Last name').fill('Patel');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('textbox', { name: 'Country' }).click();
    await page.getByRole('option', { name: 'India (+91)' }).click();
    await page.getByLabel('Phone number').fill(mobile);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('checkbox', { name: 'I agree to the Terms and Conditions' }).check();
    await solveCaptcha(page);
    await page.locator('form').getByRole('button', { name: 'Register' }).click();
    await page.waitForURL((url) => url.pathname === '/verify-account');
    await page.getByTestId('verify-phone-code').fill(await latestCode(`91${mobile}`));
    await page.getByTestId('verify-email-code').fill(await latestCode(email));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await loginWithEmailCode(page, email);

    // The profile shows the account type; the Company section is there for a business account.
    await page.getByTestId('profile-account-type').getByText('Business').waitFor();
    const section = page.getByTestId('company-section');
    await section.waitFor();
    expect(await section.getByTestId('company-state').textContent()).toBe('Not submitted');

    // The form checks the beneficial owners with the shared rule before anything is sent.
    await section.getByLabel('Company name').fill('Patel Exports Pvt Ltd');
    await section.getByLabel('Registration number').fill('U51909MH2019PTC123456');
    await section.getByLabel('Country of registration (ISO alpha-3)').fill('ind');
    await section.getByLabel('Registered address').fill('12 Marine Drive, Mumbai 400002');
    const people = section.getByTestId('company-person');
    await people.nth(0).getByLabel('Full name').fill('Asha Patel');
    await section.getByRole('button', { name: 'Add a person' }).click();
    await people.nth(1).getByLabel('Full name').fill('Ravi Mehta');
    await people.nth(1).getByLabel('Role').selectOption('shareholder');
    await people.nth(1).getByLabel('Ownership %').fill('40');
    await section.getByTestId('company-save').click();
    await section.getByText('Someone owning more than 25 % must be listed as a beneficial owner.').waitFor();
    await people.nth(1).getByLabel('Role').selectOption('ubo');
    await section.getByTestId('company-save').click();
    await page.getByText('Company saved.').waitFor();

    // The register extract: one older than a year is refused by the form, a recent one is uploaded.
    await section.getByLabel('Issue date').fill(daysAgo(400));
    await section
      .getByTestId('company-extract-file')
      .setInputFiles({ name: 'extract.pdf', mimeType: 'application/pdf', buffer: PDF });
    await section.getByTestId('company-upload').click();
    await section
      .getByText(
        'The commercial register extract must be less than one year old. Please upload a recent one.',
      )
      .waitFor();
    await section.getByLabel('Issue date').fill(daysAgo(20));
    await section.getByTestId('company-upload').click();
    await section.getByTestId('company-document').waitFor();
    await section.getByTestId('company-submit').click();
    await page.getByText('Your company was submitted for verification.').waitFor();
    await section.locator('[data-testid="company-state"][data-state="pending"]').waitFor();

    // The representative's own identity, sent to the provider (the kyc spec walks its page in the browser).
    const profile = {
      gender: 'female',
      dob: '1985-06-01',
      address: '12 Marine Drive',
      postcode: '400002',
      city: 'Mumbai',
      country: 'IN',
      btnName: 'proceedBtn',
    };
    expect((await postFromPage(page, '/api/v2/barong/resource/profiles', profile)).status).toBe(201);
    // The token as the KYC page asks for it; its status is checked first, so a refusal names itself.
    const tokenReply = await page.evaluate(async () => {
      const res = await fetch('/api/v2/barong/resource/sumsub/token', { credentials: 'include' });
      return { status: res.status, body: await res.text() };
    });
    expect(tokenReply, tokenReply.body).toMatchObject({ status: 200 });
    const token = JSON.parse(tokenReply.body) as { token: string };
    const submitted = await page.request.post('/kyc-sim/websdk/submit', {
      multipart: {
        access_token: token.token,
        id_doc_type: 'PASSPORT',
        country: 'IND',
        front: { name: 'passport.jpg', mimeType: 'image/jpeg', buffer: JPEG },
        selfie: { name: 'selfie.png', mimeType: 'image/png', buffer: PNG },
      },
      maxRedirects: 0,
    });
    expect(submitted.status()).toBeLessThan(400);
    const { uid } = await me(page);

    // The simulator's reviewer approves the person: verified, yet a business stays at level 2 without its company.
    expect(await operator('kyc', 'approve', email)).toContain('completed GREEN');
    await expect
      .poll(async () => (await me(page)).labels.find((l) => l.key === 'document')?.value, POLL)
      .toBe('verified');
    expect((await me(page)).level).toBe(2);

    // A compliance officer sees the company case in the review queue and approves it.
    const compliance = await signedInStaff(spec.browser, 'compliance');
    await compliance.page.getByRole('tab', { name: 'Identity' }).click();
    const card = compliance.page.locator(
      `[data-testid="admin-applicant"][data-uid="${uid}"][data-kind="company"]`,
    );
    await card.waitFor();
    await card.getByText('Patel Exports Pvt Ltd').waitFor();
    await card.getByText(`Register extract issued: ${daysAgo(20)}`).waitFor();
    await card.getByText('Ravi Mehta · Beneficial owner · 40 %').waitFor();
    await card.getByLabel('Reason').fill('register extract, owners and representative checked');
    await card.getByRole('button', { name: 'Approve' }).click();
    await compliance.page.getByText('Decision sent to the provider.').waitFor();

    await expect.poll(async () => (await me(page)).level, POLL).toBe(3);
    await page.goto('/settings');
    await page.locator('[data-testid="company-state"][data-state="verified"]').waitFor(POLL);
    await page.getByTestId('kyc-status').getByText('Verified').waitFor(POLL);
    // Without the session, no company (the raw-client refusals are in the integration test).
    expect((await fetch(barong('/resource/company'))).status).toBe(401);
    await compliance.context.close();
    await context.close();
  });
});
