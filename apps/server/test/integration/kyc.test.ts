import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KycProviderError } from '../../src/adapters/kyc/port.ts';
import { payloadDigest } from '../../src/adapters/kyc/signing.ts';
import { kycCommand } from '../../src/adapters/kyc/simulator/cli.ts';
import { createSumsubProvider, multipart } from '../../src/adapters/kyc/sumsub.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { activeUser, loginWithEmailCode, nextIp } from '../support/identity.ts';

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

type Session = { cookie: string; csrf: string };
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 7)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 1)]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PROFILE = {
  gender: 'female',
  dob: '1990-04-12',
  address: '12 Sakura Street',
  postcode: '1000001',
  city: 'Tokyo',
  country: 'JP',
  btnName: 'proceedBtn',
};

const credentials = () => {
  const sim = t.deps.kycSimulator;
  if (!sim) throw new Error('the simulator is not the provider');
  return sim.routes.credentials;
};

const call = (method: 'GET' | 'POST' | 'PUT', url: string, session: Session, payload?: unknown) =>
  t.app.inject({
    method,
    url: `/api/v2/barong${url}`,
    headers: { cookie: session.cookie, 'x-csrf-token': session.csrf },
    payload: payload as Record<string, unknown> | undefined,
    remoteAddress: nextIp(),
  });

const upload = (session: Session, parts: Parameters<typeof multipart>[0]) => {
  const form = multipart(parts);
  return t.app.inject({
    method: 'POST',
    url: '/api/v2/barong/resource/documents',
    headers: { cookie: session.cookie, 'x-csrf-token': session.csrf, 'content-type': form.contentType },
    payload: form.body,
    remoteAddress: nextIp(),
  });
};

async function signedIn(email: string) {
  const user = await activeUser(t, email);
  const session = await loginWithEmailCode(t, user.email, user.password);
  const uid = (await t.db.pool.query('select uid, id from users where email = $1', [email])).rows[0];
  return { ...user, session, uid: uid.uid as string, id: String(uid.id) };
}

async function state(userId: string) {
  const labels = (await t.db.pool.query('select key, value from labels where user_id = $1', [userId])).rows;
  const level = (await t.db.pool.query('select level from users where id = $1', [userId])).rows[0].level;
  const get = (k: string) => labels.find((l) => l.key === k)?.value ?? null;
  return { kyc: get('basic-kyc-level'), document: get('document'), level: level as number };
}

/** Lets the simulator deliver what it queued, then reads the user's state. */
async function settled(userId: string) {
  const delivery = t.deps.kycSimulator?.delivery;
  for (let i = 0; i < 50; i++) {
    delivery?.kick();
    await delivery?.idle();
    const pending = await t.db.pool.query('select 1 from kyc_sim_webhooks where delivered_at is null');
    if (pending.rowCount === 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return state(userId);
}

/** Submits documents and a selfie through the simulator's verification page, as the browser does. */
async function submitOnPage(token: string, files: { front?: Buffer; selfie?: Buffer } = {}) {
  const form = multipart([
    { name: 'access_token', value: token },
    { name: 'id_doc_type', value: 'PASSPORT' },
    { name: 'country', value: 'JPN' },
    { name: 'front', fileName: 'passport.jpg', contentType: 'image/jpeg', value: files.front ?? JPEG },
    { name: 'selfie', fileName: 'selfie.png', contentType: 'image/png', value: files.selfie ?? PNG },
  ]);
  return fetch(`${base}/kyc-sim/websdk/submit`, {
    method: 'POST',
    headers: { 'content-type': form.contentType },
    body: form.body,
    redirect: 'manual',
  });
}

/** Sends a webhook signed with the simulator's webhook secret (or a given digest). */
function webhook(payload: Record<string, unknown>, digest?: string, raw?: string) {
  const body = raw ?? JSON.stringify(payload);
  return t.app.inject({
    method: 'POST',
    url: '/api/v2/barong/public/kyc/webhook',
    headers: {
      'content-type': 'application/json',
      'x-payload-digest': digest ?? payloadDigest('HMAC_SHA512_HEX', credentials().webhookSecret, body),
      'x-payload-digest-alg': 'HMAC_SHA512_HEX',
    },
    payload: body,
  });
}

let correlation = 0;
const event = (uid: string, type: string, extra: Record<string, unknown> = {}) => ({
  applicantId: `app-${uid}`,
  correlationId: `req-test-${++correlation}`,
  externalUserId: uid,
  levelName: 'basic-kyc-level',
  type,
  createdAtMs: new Date(Date.now() + correlation).toISOString().replace('T', ' ').replace('Z', ''),
  ...extra,
});

describe('the real Sumsub adapter against the simulator over HTTP', () => {
  it('creates and reads applicants, issues tokens and links, files documents; a wrong secret is refused', async () => {
    const c = credentials();
    const provider = createSumsubProvider({
      baseUrl: `${base}/kyc-sim`,
      appToken: c.appToken,
      secretKey: c.secretKey,
    });
    const created = await provider.createApplicant({ externalUserId: 'ext-1', levelName: 'basic-kyc-level' });
    expect(created).toMatchObject({ externalUserId: 'ext-1', review: { reviewStatus: 'init' } });
    expect(created.id).toMatch(/^[0-9a-f]{24}$/);
    expect((await provider.findApplicantByExternalId('ext-1'))?.id).toBe(created.id);
    expect(await provider.findApplicantByExternalId('nobody')).toBeNull();
    expect((await provider.getApplicant(created.id))?.externalUserId).toBe('ext-1');
    expect(await provider.getApplicantStatus(created.id)).toEqual({
      reviewStatus: 'init',
      levelName: 'basic-kyc-level',
    });
    const token = await provider.accessToken({
      userId: 'ext-1',
      levelName: 'basic-kyc-level',
      ttlInSecs: 600,
    });
    expect(token.userId).toBe('ext-1');
    expect(token.token).toMatch(/^_act-sbx-/);
    const link = await provider.webSdkLink({
      userId: 'ext-1',
      levelName: 'basic-kyc-level',
      ttlInSecs: 600,
      redirectUrl: 'http://localhost/done',
    });
    expect(link.url).toContain('/kyc-sim/websdk?access_token=');
    const doc = await provider.addDocument(
      created.id,
      { idDocType: 'PASSPORT', country: 'JPN' },
      { name: 'p.png', mimeType: 'image/png', content: PNG },
    );
    expect(doc.id).toMatch(/^\d+$/);
    await expect(
      provider.addDocument(
        created.id,
        { idDocType: 'PASSPORT' },
        { name: 'x.png', mimeType: 'image/png', content: Buffer.from('GIF89a') },
      ),
    ).rejects.toMatchObject({ status: 400 });

    const forged = createSumsubProvider({
      baseUrl: `${base}/kyc-sim`,
      appToken: c.appToken,
      secretKey: 'wrong-secret',
    });
    await expect(forged.getApplicant(created.id)).rejects.toBeInstanceOf(KycProviderError);
    await expect(forged.getApplicant(created.id)).rejects.toMatchObject({ status: 401 });
    const unsigned = await fetch(`${base}/kyc-sim/resources/applicants/${created.id}/one`);
    expect(unsigned.status).toBe(401);
  });
});

describe('identity verification flow', () => {
  it('profile, token, documents and selfie, operator approval: verified and level 3', async () => {
    const u = await signedIn('kyc-flow@example.com');
    const early = await call('GET', '/resource/sumsub/token', u.session);
    expect(early.statusCode).toBe(422);
    expect(early.json()).toEqual({ errors: ['resource.kyc.profile_incomplete'] });
    expect(await state(u.id)).toEqual({ kyc: null, document: null, level: 2 });

    expect((await call('POST', '/resource/profiles', u.session, PROFILE)).statusCode).toBe(201);
    const res = await call('GET', '/resource/sumsub/token', u.session);
    expect(res.statusCode).toBe(200);
    const token = res.json();
    expect(token).toMatchObject({ provider: 'simulator', userId: u.uid, level_name: 'basic-kyc-level' });
    expect(token.widget_url).toBe(`/kyc-sim/websdk?access_token=${encodeURIComponent(token.token)}`);
    expect(await settled(u.id)).toEqual({ kyc: 'initiated', document: null, level: 2 });
    // The profile can no longer be edited once verification has started.
    expect((await call('PUT', '/resource/profiles', u.session, PROFILE)).json()).toEqual({
      errors: ['resource.profile.doesnt_exist_or_not_editable'],
    });

    const page = await fetch(`${base}${token.widget_url}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    const html = await page.text();
    for (const field of ['id_doc_type', 'name="front"', 'name="back"', 'name="selfie"'])
      expect(html).toContain(field);

    const refused = await submitOnPage(token.token, { selfie: PDF });
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain('the selfie a photo');
    const submitted = await submitOnPage(token.token);
    expect(submitted.status).toBe(303);
    expect(await settled(u.id)).toEqual({ kyc: 'in_review', document: 'pending', level: 2 });

    expect((await kycCommand(t.db.pool, 'approve', u.email)).ok).toBe(true);
    expect(await settled(u.id)).toEqual({ kyc: 'verified', document: 'verified', level: 3 });
    const me = await call('GET', '/resource/users/me', u.session);
    expect(me.json().level).toBe(3);
    expect(me.json().labels).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: 'basic-kyc-level', value: 'verified' }),
        expect.objectContaining({ key: 'document', value: 'verified' }),
      ]),
    );
    expect((await call('GET', '/resource/sumsub/token', u.session)).json()).toEqual({
      errors: ['resource.kyc.already_verified'],
    });

    // A reset at the provider drops level 3.
    expect((await kycCommand(t.db.pool, 'reset', u.email)).ok).toBe(true);
    expect(await settled(u.id)).toEqual({ kyc: 'initiated', document: null, level: 2 });
  });

  it('RETRY lets the user resubmit; FINAL blocks further attempts', async () => {
    const u = await signedIn('kyc-retry@example.com');
    await call('POST', '/resource/profiles', u.session, PROFILE);
    const token = (await call('GET', '/resource/sumsub/token', u.session)).json();
    expect((await submitOnPage(token.token)).status).toBe(303);
    expect((await kycCommand(t.db.pool, 'approve', 'nobody@example.com')).ok).toBe(false);
    expect(await kycCommand(t.db.pool, 'retry', u.email)).toMatchObject({ ok: true });
    expect(await settled(u.id)).toEqual({ kyc: 'retry', document: 'retry', level: 2 });

    const again = (await call('GET', '/resource/sumsub/token', u.session)).json();
    expect((await submitOnPage(again.token)).status).toBe(303);
    expect(await settled(u.id)).toEqual({ kyc: 'in_review', document: 'pending', level: 2 });
    expect((await kycCommand(t.db.pool, 'hold', u.email)).ok).toBe(true);
    expect(await settled(u.id)).toEqual({ kyc: 'onhold', document: 'pending', level: 2 });
    expect((await kycCommand(t.db.pool, 'reject', u.email)).ok).toBe(true);
    expect(await settled(u.id)).toEqual({ kyc: 'rejected', document: 'rejected', level: 2 });

    expect((await call('GET', '/resource/sumsub/token', u.session)).json()).toEqual({
      errors: ['resource.kyc.rejected_final'],
    });
    const blocked = await submitOnPage(again.token);
    expect(blocked.status).toBe(422);
    expect(await blocked.text()).toContain('Your verification was rejected');
    expect(await kycCommand(t.db.pool, 'approve', u.email)).toMatchObject({ ok: false });
    expect(await settled(u.id)).toEqual({ kyc: 'rejected', document: 'rejected', level: 2 });
  });
});

describe('webhooks', () => {
  it('refuses a bad digest before reading the body, and changes nothing', async () => {
    const u = await signedIn('kyc-digest@example.com');
    const body = JSON.stringify(
      event(u.uid, 'applicantReviewed', { reviewResult: { reviewAnswer: 'GREEN' } }),
    );
    const digest = payloadDigest('HMAC_SHA512_HEX', credentials().webhookSecret, body);
    const oneByte = body.replace('GREEN', 'GREEm');
    expect((await webhook({}, digest, oneByte)).statusCode).toBe(401);
    expect((await webhook({}, digest, oneByte)).json()).toEqual({ errors: ['kyc.webhook.invalid_digest'] });
    expect((await webhook({}, 'deadbeef', body)).statusCode).toBe(401);
    const wrongSecret = payloadDigest('HMAC_SHA512_HEX', 'not-the-secret', body);
    expect((await webhook({}, wrongSecret, body)).statusCode).toBe(401);
    expect(
      (
        await webhook(
          {},
          payloadDigest('HMAC_SHA512_HEX', credentials().webhookSecret, 'not json'),
          'not json',
        )
      ).statusCode,
    ).toBe(400);
    expect(await state(u.id)).toEqual({ kyc: null, document: null, level: 2 });
    expect(
      (await t.db.pool.query('select count(*)::int as n from kyc_webhook_events where user_id = $1', [u.id]))
        .rows[0].n,
    ).toBe(0);

    expect((await webhook({}, undefined, body)).json()).toEqual({ status: 'applied' });
    expect(await state(u.id)).toEqual({ kyc: 'verified', document: 'verified', level: 3 });
  });

  it('a duplicate (type, correlationId) and a stale event are no-ops; a GREEN for another level changes nothing', async () => {
    const u = await signedIn('kyc-idem@example.com');
    const pending = event(u.uid, 'applicantPending');
    expect((await webhook(pending)).json()).toEqual({ status: 'applied' });
    const green = event(u.uid, 'applicantReviewed', { reviewResult: { reviewAnswer: 'GREEN' } });
    expect((await webhook(green)).json()).toEqual({ status: 'applied' });
    expect(await state(u.id)).toEqual({ kyc: 'verified', document: 'verified', level: 3 });

    // Redelivered: same type and correlation id.
    expect((await webhook(pending)).json()).toEqual({ status: 'duplicate' });
    // A new event created before the GREEN that is already applied.
    const late = { ...event(u.uid, 'applicantOnHold'), createdAtMs: pending.createdAtMs };
    expect((await webhook(late)).json()).toEqual({ status: 'stale' });
    expect(await state(u.id)).toEqual({ kyc: 'verified', document: 'verified', level: 3 });

    const v = await signedIn('kyc-level@example.com');
    const other = event(v.uid, 'applicantReviewed', {
      levelName: 'enhanced-level',
      reviewResult: { reviewAnswer: 'GREEN' },
    });
    expect((await webhook(other)).json()).toEqual({ status: 'other_level' });
    expect(await state(v.id)).toEqual({ kyc: null, document: null, level: 2 });

    const unknown = event('no-such-uid', 'applicantPending');
    expect((await webhook(unknown)).json()).toEqual({ status: 'unknown_applicant' });
    const outcomes = (
      await t.db.pool.query('select outcome from kyc_webhook_events where user_id = $1 order by id', [u.id])
    ).rows.map((r) => r.outcome);
    expect(outcomes).toEqual(['applied', 'applied', 'stale']);
  });
});

describe('applicant id, documents and net verify', () => {
  let u: Awaited<ReturnType<typeof signedIn>>;
  beforeAll(async () => {
    u = await signedIn('kyc-docs@example.com');
    await call('POST', '/resource/profiles', u.session, PROFILE);
  });

  it('keeps the applicant id only when the provider says it is this user', async () => {
    const { applicant_id } = (await call('GET', '/resource/sumsub/token', u.session)).json();
    const saved = await call('POST', '/resource/sumsub/applicant_id', u.session, { applicant_id });
    expect(saved.statusCode).toBe(201);
    expect(saved.json()).toEqual({ applicant_id });
    const other = await signedIn('kyc-other@example.com');
    await call('POST', '/resource/profiles', other.session, PROFILE);
    const theirs = (await call('GET', '/resource/sumsub/token', other.session)).json().applicant_id;
    for (const bad of [theirs, 'ffffffffffffffffffffffff', '', '../x']) {
      const res = await call('POST', '/resource/sumsub/applicant_id', u.session, { applicant_id: bad });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ errors: ['resource.kyc.invalid_applicant'] });
    }
  });

  it('takes JPG, PNG and PDF up to 2 MB each, by content; refuses the rest with nothing stored', async () => {
    const ok = await upload(u.session, [
      { name: 'doc_type', value: 'passport' },
      { name: 'doc_number', value: 'AB123456' },
      { name: 'doc_expire', value: '2099-01-31' },
      { name: 'upload[]', fileName: 'front.jpeg', contentType: 'image/jpeg', value: JPEG },
      { name: 'upload[]', fileName: 'scan.PDF', contentType: 'application/pdf', value: PDF },
    ]);
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toHaveLength(2);
    expect(ok.json()[0]).toMatchObject({
      doc_type: 'passport',
      doc_number: 'AB123456',
      doc_expire: '2099-01-31',
      upload: { file_name: 'front.jpeg', content_type: 'image/jpeg', size: JPEG.length },
    });
    const exact = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024 - PNG.length)]);
    const atLimit = await upload(u.session, [
      { name: 'doc_type', value: 'utility_bill' },
      { name: 'upload', fileName: 'bill.png', contentType: 'image/png', value: exact },
    ]);
    expect(atLimit.statusCode).toBe(201);
    const count = async () =>
      (await t.db.pool.query('select count(*)::int as n from kyc_documents where user_id = $1', [u.id]))
        .rows[0].n;
    const before = await count();

    const refusals: [Parameters<typeof multipart>[0], string][] = [
      [
        [
          { name: 'doc_type', value: 'passport' },
          {
            name: 'upload',
            fileName: 'photo.png',
            contentType: 'image/png',
            value: Buffer.from('GIF89a....'),
          },
        ],
        'resource.documents.invalid_format',
      ],
      [
        [
          { name: 'doc_type', value: 'passport' },
          {
            name: 'upload',
            fileName: 'big.png',
            contentType: 'image/png',
            value: Buffer.concat([exact, Buffer.alloc(1)]),
          },
        ],
        'resource.documents.file_too_large',
      ],
      [[{ name: 'doc_type', value: 'passport' }], 'resource.documents.missing_upload'],
      [[{ name: 'upload', fileName: 'a.png', value: PNG }], 'resource.documents.invalid_doc_type'],
      [
        [
          { name: 'doc_type', value: 'selfie_with_cat' },
          { name: 'upload', fileName: 'a.png', value: PNG },
        ],
        'resource.documents.invalid_doc_type',
      ],
      [
        [
          { name: 'doc_type', value: 'passport' },
          { name: 'doc_expire', value: '2001-01-01' },
          { name: 'upload', fileName: 'a.png', value: PNG },
        ],
        'resource.documents.invalid_doc_expire',
      ],
      [
        [
          { name: 'doc_type', value: 'passport' },
          ...Array.from({ length: 6 }, (_, i) => ({ name: 'upload', fileName: `${i}.png`, value: PNG })),
        ],
        'resource.documents.too_many_files',
      ],
    ];
    for (const [parts, code] of refusals) {
      const res = await upload(u.session, parts);
      expect(res.statusCode, code).toBe(422);
      expect(res.json()).toEqual({ errors: [code] });
    }
    const json = await call('POST', '/resource/documents', u.session, { doc_type: 'passport' });
    expect(json.json()).toEqual({ errors: ['resource.documents.not_multipart'] });
    expect(await count()).toBe(before);

    const list = await call('GET', '/resource/documents', u.session);
    expect(list.json().map((d: { doc_type: string }) => d.doc_type)).toEqual([
      'passport',
      'passport',
      'utility_bill',
    ]);
    // Filed with the provider too, since the user has an applicant there.
    const filed = await t.db.pool.query(
      'select count(*)::int as n from kyc_documents where user_id = $1 and provider_doc_id is not null',
      [u.id],
    );
    expect(filed.rows[0].n).toBe(3);
  });

  it('net verify: initiate gives the provider page and a scan reference; success and kyc report the state', async () => {
    const bad = await call('POST', '/resource/profiles/net_verify/initiate', u.session, {
      redirectUrl: 'javascript:alert(1)',
    });
    expect(bad.json()).toEqual({ errors: ['resource.kyc.invalid_redirect_url'] });
    const res = await call('POST', '/resource/profiles/net_verify/initiate', u.session, {
      redirectUrl: 'http://localhost:3000/settings',
    });
    expect(res.statusCode).toBe(201);
    const { scan_ref, redirectUrl } = res.json();
    expect(scan_ref).toMatch(/^[0-9a-f-]{36}$/);
    const link = new URL(redirectUrl);
    expect(link.pathname).toBe('/kyc-sim/websdk');
    expect(link.searchParams.get('redirect_url')).toBe(`http://localhost:3000/settings?scan_ref=${scan_ref}`);
    const token = link.searchParams.get('access_token') ?? '';
    expect((await submitOnPage(token)).status).toBe(303);
    const back = await fetch(`${base}/kyc-sim/websdk?${link.searchParams}`);
    expect(await back.text()).toContain(`href="http://localhost:3000/settings?scan_ref=${scan_ref}"`);

    const success = await call('POST', '/resource/profiles/net_verify/success', u.session, { scan_ref });
    expect(success.statusCode).toBe(200);
    expect(success.json()).toMatchObject({ scan_ref, state: 'submitted', review_status: 'pending' });
    await settled(u.id);
    const kyc = await call('GET', `/resource/profiles/net_verify/kyc?scan_ref=${scan_ref}`, u.session);
    expect(kyc.json()).toMatchObject({ scan_ref, kyc_status: 'in_review', review_status: 'pending' });
    expect((await call('POST', '/resource/profiles/net_verify/kyc', u.session, {})).json()).toEqual({
      errors: ['resource.kyc.missing_scan_ref'],
    });
    const someoneElse = await signedIn('kyc-scan@example.com');
    expect(
      (await call('POST', '/resource/profiles/net_verify/kyc', someoneElse.session, { scan_ref })).statusCode,
    ).toBe(404);
  });

  it('needs a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v2/barong/resource/sumsub/token' });
    expect(res.statusCode).toBe(401);
  });
});

describe('the demo setting that auto-approves', () => {
  it('approves a submitted applicant after the configured delay', async () => {
    const demo = await createTestApp({}, { KYC_AUTO_APPROVE_SECONDS: '1' });
    try {
      const demoBase = await demo.app.listen({ port: 0, host: '127.0.0.1' });
      const user = await activeUser(demo, 'kyc-auto@example.com');
      const session = await loginWithEmailCode(demo, user.email, user.password);
      const headers = { cookie: session.cookie, 'x-csrf-token': session.csrf };
      await demo.app.inject({
        method: 'POST',
        url: '/api/v2/barong/resource/profiles',
        headers,
        payload: PROFILE,
      });
      const token = (
        await demo.app.inject({ method: 'GET', url: '/api/v2/barong/resource/sumsub/token', headers })
      ).json();
      const form = multipart([
        { name: 'access_token', value: token.token },
        { name: 'id_doc_type', value: 'PASSPORT' },
        { name: 'front', fileName: 'p.jpg', value: JPEG },
        { name: 'selfie', fileName: 's.png', value: PNG },
      ]);
      const submitted = await fetch(`${demoBase}/kyc-sim/websdk/submit`, {
        method: 'POST',
        headers: { 'content-type': form.contentType },
        body: form.body,
        redirect: 'manual',
      });
      expect(submitted.status).toBe(303);
      const deadline = Date.now() + 15_000;
      let level = 0;
      while (Date.now() < deadline && level !== 3) {
        await new Promise((r) => setTimeout(r, 250));
        level = (await demo.db.pool.query('select level from users where email = $1', [user.email])).rows[0]
          .level;
      }
      expect(level).toBe(3);
    } finally {
      await demo.close();
    }
  });
});
