import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kycCommand } from '../../src/adapters/kyc/simulator/cli.ts';
import { multipart } from '../../src/adapters/kyc/sumsub.ts';
import { isVerifiedBusiness } from '../../src/modules/business/account-type.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { type BarongSession, nextIp, registration, signedInUser } from '../support/identity.ts';
import { JPEG, kycHarness, PDF, PROFILE } from '../support/kyc.ts';
import { adminCall, asStaff, person, stepUp } from '../support/staff.ts';

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());
const { call, settled, submitOnPage } = kycHarness(() => ({ t, base }));

const COMPANY = {
  name: 'Sakura Trading GmbH',
  registration_number: 'HRB 123456',
  country: 'DEU',
  address: 'Unter den Linden 1, 10117 Berlin',
  representatives: [
    { name: 'Priya Sharma', role: 'director', ownership: null },
    { name: 'Kenji Sato', role: 'ubo', ownership: '60' },
    { name: 'Anna Berg', role: 'shareholder', ownership: '25' },
  ],
};

/** A date `days` before today (UTC), as YYYY-MM-DD. */
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

async function user(email: string, accountType?: 'business' | 'personal') {
  const { session, ...rest } = await signedInUser(t, email, accountType ? { account_type: accountType } : {});
  const row = (await t.db.pool.query('select uid, id from users where email = $1', [email])).rows[0];
  return { ...rest, session, uid: row.uid as string, id: String(row.id) };
}

/** `POST /resource/company/documents` with a register extract issued on `issuedOn`. */
function uploadExtract(session: BarongSession | undefined, issuedOn: string | undefined, file: Buffer = PDF) {
  const form = multipart([
    { name: 'doc_type', value: 'register_extract' },
    ...(issuedOn !== undefined ? [{ name: 'issued_on', value: issuedOn }] : []),
    { name: 'file', fileName: 'extract.pdf', contentType: 'application/pdf', value: file },
  ]);
  return t.app.inject({
    method: 'POST',
    url: '/api/v2/barong/resource/company/documents',
    headers: {
      ...(session ? { cookie: session.cookie, 'x-csrf-token': session.csrf } : {}),
      'content-type': form.contentType,
    },
    payload: form.body,
    remoteAddress: nextIp(),
  });
}

/** The person's own identity, through the simulator's page, submitted for review. */
async function submitIdentity(u: { session: BarongSession; id: string }) {
  expect((await call('POST', '/resource/profiles', u.session, PROFILE)).statusCode).toBe(201);
  const token = (await call('GET', '/resource/sumsub/token', u.session)).json();
  expect((await submitOnPage(token.token)).status).toBe(303);
  await settled(u.id);
}

const companyState = async (userId: string) =>
  (await t.db.pool.query('select review_state from companies where user_id = $1', [userId])).rows[0]
    ?.review_state;

describe('registration: Personal or Business', () => {
  it('takes account_type, defaults to personal, and refuses anything else', async () => {
    const biz = await user('biz-register@example.com', 'business');
    const me = (await call('GET', '/resource/users/me', biz.session)).json();
    expect(me.account_type).toBe('business');
    const plain = await user('plain-register@example.com');
    expect((await call('GET', '/resource/users/me', plain.session)).json().account_type).toBe('personal');
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/v2/barong/identity/users',
      payload: registration('odd-type@example.com', { account_type: 'corporate' }),
      remoteAddress: nextIp(),
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toContain('identity.user.invalid_account_type');
  });
});

describe('the company of a business account (raw client)', () => {
  it('refuses a visitor, a personal account, and never shows another account its company', async () => {
    for (const [method, url] of [
      ['GET', '/resource/company'],
      ['PUT', '/resource/company'],
      ['POST', '/resource/company/submit'],
    ] as const)
      expect((await call(method, url, undefined, COMPANY)).statusCode).toBe(401);
    expect((await uploadExtract(undefined, daysAgo(10))).statusCode).toBe(401);

    const personal = await user('personal-company@example.com');
    for (const [method, url] of [
      ['GET', '/resource/company'],
      ['PUT', '/resource/company'],
      ['POST', '/resource/company/submit'],
    ] as const) {
      const res = await call(method, url, personal.session, COMPANY);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ errors: ['resource.company.personal_account'] });
    }
    expect((await uploadExtract(personal.session, daysAgo(10))).json()).toEqual({
      errors: ['resource.company.personal_account'],
    });
    expect(await t.db.pool.query('select 1 from companies where user_id = $1', [personal.id])).toMatchObject({
      rowCount: 0,
    });

    const owner = await user('owner-company@example.com', 'business');
    expect((await call('PUT', '/resource/company', owner.session, COMPANY)).statusCode).toBe(200);
    const other = await user('other-company@example.com', 'business');
    // The routes name no company: another business account sees only that it has none of its own.
    const theirs = await call('GET', '/resource/company', other.session);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual({ errors: ['resource.company.not_found'] });
    expect((await uploadExtract(other.session, daysAgo(10))).statusCode).toBe(404);
    // A query or body naming the owner changes nothing.
    const probe = await call('GET', `/resource/company?uid=${owner.uid}&user_id=${owner.id}`, other.session);
    expect(probe.statusCode).toBe(404);
    // Without the CSRF token a cookie alone cannot write.
    const noCsrf = await t.app.inject({
      method: 'PUT',
      url: '/api/v2/barong/resource/company',
      headers: { cookie: owner.session.cookie },
      payload: { ...COMPANY, name: 'Hijacked Ltd' },
      remoteAddress: nextIp(),
    });
    expect(noCsrf.statusCode).toBe(401);
    expect((await call('GET', '/resource/company', owner.session)).json().name).toBe(COMPANY.name);
  });

  it('validates the company and its beneficial owners (25 % plus one share)', async () => {
    const u = await user('validate-company@example.com', 'business');
    const put = (body: unknown) => call('PUT', '/resource/company', u.session, body);
    const errors = async (body: unknown) => {
      const res = await put(body);
      expect(res.statusCode).toBe(422);
      return res.json().errors as string[];
    };
    expect(await errors({})).toEqual(
      expect.arrayContaining([
        'resource.company.invalid_name',
        'resource.company.invalid_registration_number',
        'resource.company.invalid_country',
        'resource.company.invalid_address',
        'resource.company.invalid_representatives',
      ]),
    );
    const people = (representatives: unknown[]) => ({ ...COMPANY, representatives });
    // An owner of more than 25 % listed as a mere shareholder.
    expect(
      await errors(
        people([
          { name: 'Priya Sharma', role: 'director' },
          { name: 'Kenji Sato', role: 'shareholder', ownership: '25.0001' },
        ]),
      ),
    ).toEqual(['resource.company.owner_not_beneficial']);
    // A beneficial owner with exactly 25 % is not one.
    expect(
      await errors(
        people([
          { name: 'Priya Sharma', role: 'director' },
          { name: 'Kenji Sato', role: 'ubo', ownership: '25' },
        ]),
      ),
    ).toEqual(['resource.company.beneficial_owner_share']);
    expect(
      await errors(
        people([
          { name: 'Priya Sharma', role: 'director' },
          { name: 'Kenji Sato', role: 'ubo', ownership: '70' },
          { name: 'Anna Berg', role: 'ubo', ownership: '40' },
        ]),
      ),
    ).toEqual(['resource.company.ownership_over_100']);
    expect(await errors(people([{ name: 'Kenji Sato', role: 'ubo', ownership: '100' }]))).toEqual([
      'resource.company.representative_missing',
    ]);
    expect(
      await errors(
        people([
          { name: 'Priya Sharma', role: 'director' },
          { name: 'Kenji Sato', role: 'owner', ownership: '1e2' },
        ]),
      ),
    ).toEqual(
      expect.arrayContaining([
        'resource.company.invalid_representative_role',
        'resource.company.invalid_ownership',
      ]),
    );
    // A malformed share alone is a 422 with its code, never a failure of the owner rule.
    expect(
      await errors(
        people([
          { name: 'Priya Sharma', role: 'director' },
          { name: 'Kenji Sato', role: 'ubo', ownership: '1e2' },
        ]),
      ),
    ).toEqual(['resource.company.invalid_ownership']);
    expect(await companyState(u.id)).toBeUndefined();
    const saved = await put(COMPANY);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      name: COMPANY.name,
      review_state: 'draft',
      representatives: [
        { name: 'Priya Sharma', role: 'director', ownership: null },
        { name: 'Kenji Sato', role: 'ubo', ownership: '60' },
        { name: 'Anna Berg', role: 'shareholder', ownership: '25' },
      ],
      documents: [],
    });
  });

  it('needs a commercial register extract issued within the last year', async () => {
    const u = await user('extract-company@example.com', 'business');
    expect((await uploadExtract(u.session, daysAgo(5))).json()).toEqual({
      errors: ['resource.company.not_found'],
    });
    await call('PUT', '/resource/company', u.session, COMPANY);
    const submitEarly = await call('POST', '/resource/company/submit', u.session);
    expect(submitEarly.statusCode).toBe(422);
    expect(submitEarly.json()).toEqual({ errors: ['resource.company.register_extract_missing'] });
    const refused = async (issuedOn: string | undefined, code: string, file?: Buffer) => {
      const res = await uploadExtract(u.session, issuedOn, file);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toEqual({ errors: [code] });
    };
    await refused(undefined, 'resource.company.register_extract_invalid_date');
    await refused('2026-02-30', 'resource.company.register_extract_invalid_date');
    await refused(daysAgo(366), 'resource.company.register_extract_outdated');
    await refused(daysAgo(-2), 'resource.company.register_extract_future_date');
    await refused(daysAgo(10), 'resource.documents.invalid_format', Buffer.from('GIF89a not a document'));
    expect(
      (
        await t.db.pool.query(
          'select count(*)::int as n from company_documents d join companies c on c.id = d.company_id where c.user_id = $1',
          [u.id],
        )
      ).rows[0].n,
    ).toBe(0);
    const ok = await uploadExtract(u.session, daysAgo(364));
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().documents).toEqual([
      expect.objectContaining({
        doc_type: 'register_extract',
        issued_on: daysAgo(364),
        content_type: 'application/pdf',
      }),
    ]);
    // An extract that has aged past a year since its upload is refused at submission, before the provider hears of it.
    await t.db.pool.query(
      `update company_documents set issued_on = issued_on - 30 where company_id = (select id from companies where user_id = $1)`,
      [u.id],
    );
    expect((await call('POST', '/resource/company/submit', u.session)).json()).toEqual({
      errors: ['resource.company.register_extract_outdated'],
    });
    expect(
      (
        await t.db.pool.query(`select 1 from kyc_sim_applicants where external_user_id = $1`, [
          `${u.uid}-kyb`,
        ])
      ).rowCount,
    ).toBe(0);
  });
});

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
    expect((await kycCommand(t.db.pool, 'approve', u.email)).ok).toBe(true);
    expect(await settled(u.id)).toEqual({ kyc: 'verified', document: 'verified', level: 3 });
    expect(await isVerifiedBusiness(t.db.pool, u.id)).toBe(true);
    expect((await call('GET', '/resource/company', u.session)).json().review_state).toBe('verified');

    // The company's verification withdrawn at the provider: back to level 2.
    expect((await kycCommand(t.db.pool, 'company-reset', u.email)).ok).toBe(true);
    expect(await settled(u.id)).toMatchObject({ kyc: 'verified', level: 2 });
    expect(await companyState(u.id)).toBe('draft');
  });

  it('the person alone does not make a business level 3; a personal account is unchanged', async () => {
    const biz = await user('kyb-person-only@example.com', 'business');
    await submitIdentity(biz);
    expect((await kycCommand(t.db.pool, 'approve', biz.email)).ok).toBe(true);
    expect(await settled(biz.id)).toEqual({ kyc: 'verified', document: 'verified', level: 2 });

    const plain = await user('kyb-personal-level@example.com');
    await submitIdentity(plain);
    expect((await kycCommand(t.db.pool, 'approve', plain.email)).ok).toBe(true);
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
