import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { businessHarness, COMPANY, daysAgo } from '../support/business.ts';
import { nextIp, registration } from '../support/identity.ts';
import { kycHarness } from '../support/kyc.ts';

// Business accounts: the account type at registration, and the company a business account enters (its checks and
// who may see it). Its verification (KYB) and level 3: business-kyb.test.ts.
let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());
const { call } = kycHarness(() => ({ t, base }));
const { user, uploadExtract, companyState } = businessHarness(() => ({ t }));

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
