import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KycProviderError } from '../../src/adapters/kyc/port.ts';
import { createSumsubProvider, multipart } from '../../src/adapters/kyc/sumsub.ts';
import { kycCommand } from '../../src/modules/kyc/review-commands.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { activeUser, loginWithEmailCode } from '../support/identity.ts';
import { JPEG, kycDesk, kycHarness, PDF, PNG, PROFILE } from '../support/kyc.ts';

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());
const { credentials, call, signedIn, state, settled, submitOnPage } = kycHarness(() => ({ t, base }));

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

    expect((await kycCommand(t.db.pool, kycDesk(t), 'approve', u.email)).ok).toBe(true);
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
    expect((await kycCommand(t.db.pool, kycDesk(t), 'reset', u.email)).ok).toBe(true);
    expect(await settled(u.id)).toEqual({ kyc: 'initiated', document: null, level: 2 });
  });

  it('RETRY lets the user resubmit; FINAL blocks further attempts', async () => {
    const u = await signedIn('kyc-retry@example.com');
    await call('POST', '/resource/profiles', u.session, PROFILE);
    const token = (await call('GET', '/resource/sumsub/token', u.session)).json();
    expect((await submitOnPage(token.token)).status).toBe(303);
    expect((await kycCommand(t.db.pool, kycDesk(t), 'approve', 'nobody@example.com')).ok).toBe(false);
    expect(await kycCommand(t.db.pool, kycDesk(t), 'retry', u.email)).toMatchObject({ ok: true });
    expect(await settled(u.id)).toEqual({ kyc: 'retry', document: 'retry', level: 2 });

    const again = (await call('GET', '/resource/sumsub/token', u.session)).json();
    expect((await submitOnPage(again.token)).status).toBe(303);
    expect(await settled(u.id)).toEqual({ kyc: 'in_review', document: 'pending', level: 2 });
    expect((await kycCommand(t.db.pool, kycDesk(t), 'hold', u.email)).ok).toBe(true);
    expect(await settled(u.id)).toEqual({ kyc: 'onhold', document: 'pending', level: 2 });
    expect((await kycCommand(t.db.pool, kycDesk(t), 'reject', u.email)).ok).toBe(true);
    expect(await settled(u.id)).toEqual({ kyc: 'rejected', document: 'rejected', level: 2 });

    expect((await call('GET', '/resource/sumsub/token', u.session)).json()).toEqual({
      errors: ['resource.kyc.rejected_final'],
    });
    const blocked = await submitOnPage(again.token);
    expect(blocked.status).toBe(422);
    expect(await blocked.text()).toContain('Your verification was rejected');
    expect(await kycCommand(t.db.pool, kycDesk(t), 'approve', u.email)).toMatchObject({ ok: false });
    expect(await settled(u.id)).toEqual({ kyc: 'rejected', document: 'rejected', level: 2 });
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
      const profile = await demo.app.inject({
        method: 'POST',
        url: '/api/v2/barong/resource/profiles',
        headers,
        payload: PROFILE,
      });
      expect(profile.statusCode, profile.body).toBe(201);
      // A full run once answered no token here (a deadlock with the provider's webhook, since fixed; account-lock
      // replays it): should a refusal come back, the answer and the app's error lines say why.
      const answer = await demo.app.inject({
        method: 'GET',
        url: '/api/v2/barong/resource/sumsub/token',
        headers,
      });
      expect(answer.statusCode, `${answer.body}\n${demo.errors().join('\n')}`).toBe(200);
      const token = answer.json();
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
    // A second app with real argon2 logins and webhooks to itself: slow when the suite loads both cores.
  }, 60_000);
});
