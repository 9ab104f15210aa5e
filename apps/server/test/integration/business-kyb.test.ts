import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isVerifiedBusiness } from '../../src/modules/business/account-type.ts';
import { kycCommand } from '../../src/modules/kyc/review-commands.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { businessHarness, COMPANY, daysAgo } from '../support/business.ts';
import type { BarongSession } from '../support/identity.ts';
import { JPEG, kycDesk, kycHarness, PROFILE } from '../support/kyc.ts';
import { adminCall, asStaff, person, stepUp } from '../support/staff.ts';

// Business accounts: the company's verification (KYB) and level 3, which needs both the company and its
// representative verified. The account type and the company's own checks: business-accounts.test.ts.
let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());
const { call, settled, submitOnPage } = kycHarness(() => ({ t, base }));
const { user, uploadExtract, companyState } = businessHarness(() => ({ t }));

/** The person's own identity, through the simulator's page, submitted for review. */
async function submitIdentity(u: { session: BarongSession; id: string }) {
  expect((await call('POST', '/resource/profiles', u.session, PROFILE)).statusCode).toBe(201);
  const token = (await call('GET', '/resource/sumsub/token', u.session)).json();
  expect((await submitOnPage(token.token)).status).toBe(303);
  await settled(u.id);
}

describe('company verification (KYB) and level 3', () => {
  it('reaches level 3 only once both the company and its representative are verified', async () => {
    const u = await user('kyb-flow@example.com', 'business');
    await call('PUT', '/resource/company', u.session, COMPANY);
    expect((await uploadExtract(u.session, daysAgo(30), JPEG)).statusCode).toBe(201);
    const submitted = await call('POST', '/resource/company/submit', u.session);
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json().review_state).toBe('pending');
    // Each step is in the owner's security log (topic account), with the address it came from.
    const log = await call('GET', '/resource/users/activity/account', u.session);
    expect(log.statusCode).toBe(200);
    const actions = (log.json() as { action: string; result: string; user_ip: string }[]).map(
      (e) => e.action,
    );
    expect(actions).toEqual(expect.arrayContaining(['company.update', 'company.document', 'company.submit']));

    // The simulator holds a company applicant at the KYB level, with the company and its extract.
    const applicant = (
      await t.db.pool.query('select * from kyc_sim_applicants where external_user_id = $1', [`${u.uid}-kyb`])
    ).rows[0];
    expect(applicant).toMatchObject({
      applicant_type: 'company',
      level_name: 'kyb-level',
      review_status: 'pending',
    });
    expect(applicant.info.companyInfo).toMatchObject({
      companyName: COMPANY.name,
      registrationNumber: COMPANY.registration_number,
      country: 'DEU',
    });
    const docs = (
      await t.db.pool.query(
        'select id_doc_type, id_doc_sub_type from kyc_sim_documents where applicant_id = $1',
        [applicant.id],
      )
    ).rows;
    expect(docs).toEqual([{ id_doc_type: 'COMPANY_DOC', id_doc_sub_type: 'STATE_REGISTRY' }]);
    // Under review: the company can no longer change.
    expect((await call('PUT', '/resource/company', u.session, COMPANY)).json()).toEqual({
      errors: ['resource.company.not_editable'],
    });

    // The operator console lists the company case beside the person's.
    await submitIdentity(u);
    const officer = await person(t, 'kyb-officer@example.com', 'compliance');
    await stepUp(t, officer);
    const queue = (await adminCall(t, 'GET', '/kyc', officer.headers)).json() as {
      uid: string;
      kind: string;
      company: { name: string; register_extract_issued_on: string } | null;
      documents: { id: number; type: string }[];
    }[];
    const cases = queue.filter((c) => c.uid === u.uid);
    expect(cases.map((c) => c.kind).sort()).toEqual(['company', 'individual']);
    const companyCase = cases.find((c) => c.kind === 'company');
    expect(companyCase?.company).toMatchObject({
      name: COMPANY.name,
      register_extract_issued_on: daysAgo(30),
    });
    const image = await adminCall(
      t,
      'GET',
      `/kyc/${u.uid}/documents/${companyCase?.documents[0]?.id}`,
      officer.headers,
    );
    expect(image.statusCode).toBe(200);
    expect(image.rawPayload.subarray(0, 4)).toEqual(JPEG.subarray(0, 4));

    // The company first: still level 2, the representative is not verified yet.
    const approved = await adminCall(t, 'POST', `/kyc/${u.uid}/review`, officer.headers, {
      decision: 'approve',
      reason: 'register extract and owners checked',
      kind: 'company',
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ kind: 'company', review_answer: 'GREEN' });
    expect(await settled(u.id)).toMatchObject({ kyc: 'in_review', level: 2 });
    expect(await companyState(u.id)).toBe('verified');
    expect(await isVerifiedBusiness(t.db.pool, u.id)).toBe(false);

    // Then the person: level 3.
    expect((await kycCommand(t.db.pool, kycDesk(t), 'approve', u.email)).ok).toBe(true);
    expect(await settled(u.id)).toEqual({ kyc: 'verified', document: 'verified', level: 3 });
    expect(await isVerifiedBusiness(t.db.pool, u.id)).toBe(true);
    expect((await call('GET', '/resource/company', u.session)).json().review_state).toBe('verified');

    // The company's verification withdrawn at the provider: back to level 2.
    expect((await kycCommand(t.db.pool, kycDesk(t), 'company-reset', u.email)).ok).toBe(true);
    expect(await settled(u.id)).toMatchObject({ kyc: 'verified', level: 2 });
    expect(await companyState(u.id)).toBe('draft');
  });

  it('the person alone does not make a business level 3; a personal account is unchanged', async () => {
    const biz = await user('kyb-person-only@example.com', 'business');
    await submitIdentity(biz);
    expect((await kycCommand(t.db.pool, kycDesk(t), 'approve', biz.email)).ok).toBe(true);
    expect(await settled(biz.id)).toEqual({ kyc: 'verified', document: 'verified', level: 2 });

    const plain = await user('kyb-personal-level@example.com');
    await submitIdentity(plain);
    expect((await kycCommand(t.db.pool, kycDesk(t), 'approve', plain.email)).ok).toBe(true);
    expect(await settled(plain.id)).toEqual({ kyc: 'verified', document: 'verified', level: 3 });
    expect(await isVerifiedBusiness(t.db.pool, plain.id)).toBe(false);
  });

  it('a retry sends the company back for correction; staff never review their own company', async () => {
    const u = await user('kyb-staff-own@example.com', 'business');
    await call('PUT', '/resource/company', u.session, COMPANY);
    await uploadExtract(u.session, daysAgo(3));
    expect((await call('POST', '/resource/company/submit', u.session)).statusCode).toBe(200);
    await settled(u.id);
    const self = await asStaff(t, Number(u.id), 'compliance');
    await stepUp(t, self);
    const own = await adminCall(t, 'POST', `/kyc/${u.uid}/review`, self.headers, {
      decision: 'approve',
      reason: 'my own company',
      kind: 'company',
    });
    expect(own.statusCode).toBe(403);
    expect(own.json()).toEqual({ errors: ['admin.user.own_account'] });
    expect(await companyState(u.id)).toBe('pending');

    const officer = await person(t, 'kyb-officer2@example.com', 'compliance');
    await stepUp(t, officer);
    // A person's review route does not reach the company by mistake: this user has no person applicant.
    expect(
      (
        await adminCall(t, 'POST', `/kyc/${u.uid}/review`, officer.headers, {
          decision: 'approve',
          reason: 'wrong case',
        })
      ).statusCode,
    ).toBe(404);
    const retry = await adminCall(t, 'POST', `/kyc/${u.uid}/review`, officer.headers, {
      decision: 'retry',
      reason: 'The register extract is illegible',
      kind: 'company',
    });
    expect(retry.statusCode, retry.body).toBe(200);
    await settled(u.id);
    const company = (await call('GET', '/resource/company', u.session)).json();
    expect(company).toMatchObject({
      review_state: 'retry',
      review_comment: 'The register extract is illegible',
    });
    // Corrected and sent again: a second extract is filed, the same applicant is reviewed again.
    expect(
      (await call('PUT', '/resource/company', u.session, { ...COMPANY, address: 'Friedrichstr. 2, Berlin' }))
        .statusCode,
    ).toBe(200);
    expect((await uploadExtract(u.session, daysAgo(1))).statusCode).toBe(201);
    expect((await call('POST', '/resource/company/submit', u.session)).statusCode).toBe(200);
    await settled(u.id);
    expect(await companyState(u.id)).toBe('pending');
    const filed = (
      await t.db.pool.query(
        `select count(*)::int as n from kyc_sim_documents d join kyc_sim_applicants a on a.id = d.applicant_id
         where a.external_user_id = $1`,
        [`${u.uid}-kyb`],
      )
    ).rows[0].n;
    expect(filed).toBe(2);
  });
});
