import { describe, expect, it } from 'vitest';
import {
  checkRequestSignature,
  payloadDigest,
  requestSignature,
  signedHeaders,
  signingString,
  verifyPayloadDigest,
} from '../../src/adapters/kyc/signing.ts';
import { multipart } from '../../src/adapters/kyc/sumsub.ts';
import { sniffDocumentType } from '../../src/http/multipart.ts';
import {
  createdAtMs,
  DOCUMENT_LABEL,
  decide,
  formatCreatedAtMs,
  type KycWebhook,
  labelFor,
} from '../../src/modules/kyc/labels.ts';

describe('Sumsub request signing', () => {
  // Sumsub's authentication reference gives this exact string to sign for an access-token request.
  const DOCUMENTED =
    '1607551635POST/resources/accessTokens?userId=cfd20712-24a2-4c7d-9ab0-146f3c142335&levelName=basic-kyc-level&ttlInSecs=600';
  const path =
    '/resources/accessTokens?userId=cfd20712-24a2-4c7d-9ab0-146f3c142335&levelName=basic-kyc-level&ttlInSecs=600';

  it('signs exactly the documented string: ts + METHOD + path with query + body', () => {
    expect(signingString(1607551635, 'post', path)).toBe(DOCUMENTED);
  });

  it('is lowercase hex HMAC-SHA256 of that string, as OpenSSL computes it', () => {
    // printf '%s' "<documented string>" | openssl dgst -sha256 -hmac 'sumsub-doc-example-secret'
    expect(requestSignature('sumsub-doc-example-secret', 1607551635, 'POST', path)).toBe(
      '20d805f191fe673ac7cdd52703b13a7e52ffddbc57f3944233e7e816fdbf19b0',
    );
  });

  it('includes the body bytes, and a GET has none', () => {
    const body = '{"userId":"u1","levelName":"basic-kyc-level","ttlInSecs":600}';
    const withBody = requestSignature('s3cret', 1700000000, 'POST', '/resources/accessTokens/sdk', body);
    expect(withBody).toBe(
      requestSignature('s3cret', 1700000000, 'POST', `/resources/accessTokens/sdk${body}`),
    );
    expect(withBody).toMatch(/^[0-9a-f]{64}$/);
    expect(requestSignature('s3cret', 1, 'get', '/x')).toBe(requestSignature('s3cret', 1, 'GET', '/x', ''));
  });

  it('puts seconds in X-App-Access-Ts and is checked by the receiving side', () => {
    const now = 1_700_000_000_500;
    const headers = signedHeaders(
      'sbx:token',
      'secret',
      'POST',
      '/resources/applicants?levelName=l',
      '{}',
      now,
    );
    expect(headers['X-App-Access-Ts']).toBe('1700000000');
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    const request = {
      method: 'POST',
      pathWithQuery: '/resources/applicants?levelName=l',
      body: '{}',
      headers: lower,
    };
    const creds = { appToken: 'sbx:token', secretKey: 'secret' };
    expect(checkRequestSignature(creds, request, now)).toBeNull();
    expect(checkRequestSignature(creds, { ...request, body: '{ }' }, now)).toBe('invalid_signature');
    expect(
      checkRequestSignature(creds, { ...request, pathWithQuery: '/resources/applicants?levelName=m' }, now),
    ).toBe('invalid_signature');
    expect(checkRequestSignature({ ...creds, appToken: 'other' }, request, now)).toBe('unknown_token');
    expect(checkRequestSignature(creds, request, now + 61_000)).toBe('expired');
    expect(checkRequestSignature(creds, { ...request, headers: {} }, now)).toBe('missing_headers');
  });
});

describe('webhook digest', () => {
  const body = Buffer.from(
    '{"applicantId":"5cb56e8e0a975a35f333cb83","type":"applicantReviewed","reviewResult":{"reviewAnswer":"GREEN"}}',
  );
  const secret = 'SoMe_SeCrEt_KeY';
  // printf '%s' "$body" | openssl dgst -<alg> -hmac 'SoMe_SeCrEt_KeY'
  const expected = {
    HMAC_SHA1_HEX: 'dd1e23434a90b693ad1b8aed2976ea7448ccc5b7',
    HMAC_SHA256_HEX: 'cf373efdeb7bc186b774a6b988d3059c7a217a7859d5d877431f2484befcc0dd',
    HMAC_SHA512_HEX:
      'b6116aeb0ae7bb3a8d9e0f84038f9460f3d4de6b065a457e41b75acd2816a72bcf915fabd42c2eb8b6d365e44881798f0ebf2d5ef1b3c11c071b0c39ccd2afca',
  } as const;

  for (const [alg, digest] of Object.entries(expected)) {
    it(`${alg}: matches OpenSSL and verifies`, () => {
      expect(payloadDigest(alg as keyof typeof expected, secret, body)).toBe(digest);
      expect(
        verifyPayloadDigest(secret, body, { 'x-payload-digest': digest, 'x-payload-digest-alg': alg }),
      ).toBe(true);
      expect(
        verifyPayloadDigest(secret, body, {
          'x-payload-digest': digest.toUpperCase(),
          'x-payload-digest-alg': alg,
        }),
      ).toBe(true);
    });
  }

  it('refuses a body changed by one byte, a wrong secret, a missing digest and an unknown algorithm', () => {
    const headers = {
      'x-payload-digest': expected.HMAC_SHA256_HEX,
      'x-payload-digest-alg': 'HMAC_SHA256_HEX',
    };
    const changed = Buffer.from(body);
    changed[changed.length - 3] = changed[changed.length - 3]! ^ 1;
    expect(verifyPayloadDigest(secret, changed, headers)).toBe(false);
    expect(verifyPayloadDigest(secret, Buffer.concat([body, Buffer.from(' ')]), headers)).toBe(false);
    expect(verifyPayloadDigest('other-secret', body, headers)).toBe(false);
    expect(verifyPayloadDigest(secret, body, { 'x-payload-digest-alg': 'HMAC_SHA256_HEX' })).toBe(false);
    expect(verifyPayloadDigest(secret, body, { ...headers, 'x-payload-digest-alg': 'HMAC_MD5_HEX' })).toBe(
      false,
    );
  });

  it('takes SHA-1 when no algorithm is named', () => {
    expect(verifyPayloadDigest(secret, body, { 'x-payload-digest': expected.HMAC_SHA1_HEX })).toBe(true);
    expect(verifyPayloadDigest(secret, body, { 'x-payload-digest': expected.HMAC_SHA256_HEX })).toBe(false);
  });
});

describe('KYC label transitions', () => {
  const LEVEL = 'basic-kyc-level';
  const event = (type: string, extra: Partial<KycWebhook> = {}): KycWebhook => ({
    type,
    correlationId: 'req-1',
    applicantId: 'a1',
    levelName: LEVEL,
    createdAtMs: '2026-02-21 13:23:19.002',
    ...extra,
  });
  const reviewed = (reviewAnswer: string, reviewRejectType?: string) =>
    event('applicantReviewed', { reviewResult: { reviewAnswer, reviewRejectType } });

  it.each([
    ['applicantCreated', event('applicantCreated'), 'initiated', null],
    ['applicantPending', event('applicantPending'), 'in_review', 'pending'],
    ['applicantOnHold', event('applicantOnHold'), 'onhold', 'pending'],
    ['GREEN', reviewed('GREEN'), 'verified', 'verified'],
    ['RED RETRY', reviewed('RED', 'RETRY'), 'retry', 'retry'],
    ['RED FINAL', reviewed('RED', 'FINAL'), 'rejected', 'rejected'],
    ['RED without a reject type', reviewed('RED'), 'rejected', 'rejected'],
    ['applicantReset', event('applicantReset'), 'initiated', null],
  ])('%s sets the label and the document label', (_name, e, label, document) => {
    expect(labelFor(e)).toBe(label);
    expect(decide(e, LEVEL, 0, 0)).toEqual({
      outcome: 'applied',
      label,
      document,
      atMs: Date.UTC(2026, 1, 21, 13, 23, 19, 2),
      comment: null,
    });
  });

  it("keeps the reviewer's comment to the applicant with a RED answer only, trimmed and at most 1,000 characters", () => {
    const withComment = (reviewAnswer: string, moderationComment: string) =>
      event('applicantReviewed', {
        reviewResult: { reviewAnswer, reviewRejectType: 'RETRY', moderationComment },
      });
    expect(decide(withComment('RED', '  Take the photo again.  '), LEVEL, 0, 0)).toMatchObject({
      label: 'retry',
      comment: 'Take the photo again.',
    });
    expect(decide(withComment('RED', 'x'.repeat(1500)), LEVEL, 0, 0)).toMatchObject({
      comment: 'x'.repeat(1000),
    });
    expect(decide(withComment('RED', '   '), LEVEL, 0, 0)).toMatchObject({ comment: null });
    expect(decide(withComment('GREEN', 'not for a GREEN'), LEVEL, 0, 0)).toMatchObject({ comment: null });
  });

  it('moves from every label to every label the webhooks say, in any order', () => {
    const events = [
      event('applicantCreated'),
      event('applicantPending'),
      event('applicantOnHold'),
      reviewed('GREEN'),
      reviewed('RED', 'RETRY'),
      reviewed('RED', 'FINAL'),
      event('applicantReset'),
    ];
    for (const from of events)
      for (const to of events) {
        const first = decide(from, LEVEL, 0, 0);
        const second = decide(to, LEVEL, first.outcome === 'applied' ? first.atMs : 0, 0);
        expect(second).toMatchObject({ outcome: 'applied', label: labelFor(to) });
      }
  });

  it('only a GREEN review yields document: verified (level 3)', () => {
    expect(Object.entries(DOCUMENT_LABEL).filter(([, d]) => d === 'verified')).toEqual([
      ['verified', 'verified'],
    ]);
  });

  it('a GREEN for another level changes nothing', () => {
    expect(decide(reviewed('GREEN'), 'another-level', 0, 0)).toEqual({ outcome: 'other_level' });
    expect(decide(event('applicantReset', { levelName: 'another-level' }), `${LEVEL}x`, 0, 0)).toEqual({
      outcome: 'other_level',
    });
  });

  it('an event older than the one applied is stale; the same instant or newer applies', () => {
    const applied = Date.UTC(2026, 1, 21, 13, 23, 19, 2);
    expect(
      decide(event('applicantPending', { createdAtMs: '2026-02-21 13:23:19.001' }), LEVEL, applied, 0),
    ).toEqual({
      outcome: 'stale',
    });
    expect(decide(event('applicantPending'), LEVEL, applied, 0).outcome).toBe('applied');
    expect(decide(event('applicantPending', { createdAtMs: applied + 1 }), LEVEL, applied, 0).outcome).toBe(
      'applied',
    );
  });

  it('events that do not move the label are ignored', () => {
    expect(decide(event('applicantPersonalInfoChanged'), LEVEL, 0, 0)).toEqual({ outcome: 'ignored' });
    expect(decide(event('applicantReviewed'), LEVEL, 0, 0)).toEqual({ outcome: 'ignored' });
  });

  it('reads createdAtMs as Sumsub writes it, as digits or as a number', () => {
    expect(createdAtMs('2020-02-21 13:23:19.002')).toBe(Date.UTC(2020, 1, 21, 13, 23, 19, 2));
    expect(createdAtMs('2020-02-21 13:23:19.2')).toBe(Date.UTC(2020, 1, 21, 13, 23, 19, 200));
    expect(createdAtMs('1582291399002')).toBe(1582291399002);
    expect(createdAtMs(1582291399002)).toBe(1582291399002);
    expect(createdAtMs('yesterday')).toBeNull();
    expect(createdAtMs(formatCreatedAtMs(1582291399002))).toBe(1582291399002);
  });
});

describe('uploads', () => {
  it('tells JPEG, PNG and PDF by their first bytes, whatever the name', () => {
    expect(sniffDocumentType(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toBe('image/jpeg');
    expect(sniffDocumentType(Buffer.from('89504e470d0a1a0a0000000d', 'hex'))).toBe('image/png');
    expect(sniffDocumentType(Buffer.from('%PDF-1.7\n'))).toBe('application/pdf');
    expect(sniffDocumentType(Buffer.from('GIF89a'))).toBeNull();
    expect(sniffDocumentType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffDocumentType(Buffer.alloc(0))).toBeNull();
  });

  it('builds a multipart body whose bytes can be signed', () => {
    const { body, contentType } = multipart([
      { name: 'metadata', value: '{"idDocType":"PASSPORT"}' },
      { name: 'content', fileName: 'p.png', contentType: 'image/png', value: Buffer.from([1, 2, 3]) },
    ]);
    const boundary = /boundary=(.+)$/.exec(contentType)?.[1];
    expect(boundary).toBeTruthy();
    const text = body.toString('latin1');
    expect(text.startsWith(`--${boundary}\r\nContent-Disposition: form-data; name="metadata"`)).toBe(true);
    expect(text).toContain('filename="p.png"\r\nContent-Type: image/png\r\n\r\n\x01\x02\x03\r\n');
    expect(text.endsWith(`--${boundary}--\r\n`)).toBe(true);
  });
});
