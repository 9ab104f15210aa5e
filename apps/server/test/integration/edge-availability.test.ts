import { createSimApplicant, issueAccessToken } from '@exchange/provider-sims/kyc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { plainUser, sessionFor } from '../support/core.ts';
import { nextIp } from '../support/identity.ts';
import { type HeldRequest, heldRequest, multipartBody } from '../support/raw-http.ts';

/**
 * Issue 25, item 1: requests without credentials, or an upload by any signed-in user, must not stall the
 * exchange. Big bodies are refused from their declared length, or as soon as they pass a limit while streamed,
 * never after being read whole (nor enumerated byte by byte in a hook). Each big request below keeps the end
 * of its body unsent: its refusal can only arrive if the server did not wait for the whole body, and the ping
 * and the order are answered while all of them are in flight.
 */
let t: TestApp;
let base: string;
let trader: { cookie: string; 'x-csrf-token': string };
beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const id = await plainUser(t.db.pool, 'edge@availability.test');
  await t.deps.core.sequencer.submit({
    type: 'Credit',
    user: id,
    currency: 'eth',
    amount: 10n ** 19n,
    kind: 'deposit',
  });
  trader = await sessionFor(t.deps.sessions, id);
});
afterAll(() => t.close());

const MiB = 1024 * 1024;
/** The KYC webhook's body limit (KYC_WEBHOOK_BODY_LIMIT). */
const KYC_WEBHOOK_BODY_LIMIT = 64 * 1024;
/** A webhook body just under the 1 MiB that every route used to read in full. */
const bigWebhook = Buffer.from(JSON.stringify({ type: 'applicantReviewed', pad: 'a'.repeat(MiB - 1100) }));
const kycWebhook = '/api/v2/barong/public/kyc/webhook';
const cardWebhook = '/api/v2/peatio/public/card/webhook';
const json = { 'content-type': 'application/json' };
/** A digest header of the right form: the webhook looks signed until its body is checked. */
const forgedDigest = {
  ...json,
  'x-payload-digest': '0'.repeat(64),
  'x-payload-digest-alg': 'HMAC_SHA256_HEX',
};

const answerOf = async (request: HeldRequest) => {
  const answer = await request.answered;
  return { status: answer.status, body: JSON.parse(answer.body) as unknown };
};

describe('big bodies in flight', () => {
  it('answers a ping and an order while 1 MiB webhooks and 10 MB uploads are in flight, and refuses those before their bodies end', async () => {
    const upload = multipartBody(
      { doc_type: 'passport' },
      { field: 'upload', name: 'big.png', bytes: 10 * MiB },
    );
    const cardImage = multipartBody(
      { doc_type: 'passport' },
      { field: 'document_data', name: 'big.png', bytes: 10 * MiB },
    );
    const signedIn = { cookie: trader.cookie, 'x-csrf-token': trader['x-csrf-token'] };
    const held = {
      kycWebhooks: [1, 2].map(() =>
        heldRequest(base, {
          method: 'POST',
          path: kycWebhook,
          headers: forgedDigest,
          body: bigWebhook,
          withhold: 1,
        }),
      ),
      kycChunked: heldRequest(base, {
        method: 'POST',
        path: kycWebhook,
        headers: forgedDigest,
        body: bigWebhook,
        withhold: 1,
        chunked: true,
      }),
      cardWebhooks: [1, 2].map(() =>
        heldRequest(base, {
          method: 'POST',
          path: cardWebhook,
          headers: json,
          body: bigWebhook,
          withhold: 1,
        }),
      ),
      documents: heldRequest(base, {
        method: 'POST',
        path: '/api/v2/barong/resource/documents',
        headers: { ...signedIn, 'content-type': upload.contentType },
        body: upload.body,
        withhold: 1,
      }),
      cardDocument: heldRequest(base, {
        method: 'POST',
        path: '/api/v2/peatio/account/upload_document',
        headers: { ...signedIn, 'content-type': cardImage.contentType },
        body: cardImage.body,
        withhold: 1,
        chunked: true,
      }),
    };
    const all = [
      ...held.kycWebhooks,
      held.kycChunked,
      ...held.cardWebhooks,
      held.documents,
      held.cardDocument,
    ];
    try {
      const [ping, order] = await Promise.all([
        fetch(`${base}/api/v2/peatio/public/health/alive`),
        fetch(`${base}/api/v2/peatio/market/orders`, {
          method: 'POST',
          headers: { ...signedIn, ...json },
          body: JSON.stringify({
            market: 'ethbtc',
            side: 'sell',
            volume: '1',
            price: '9',
            ord_type: 'limit',
          }),
        }),
      ]);
      expect(ping.status).toBe(200);
      expect(order.status).toBe(201);

      const tooLarge = { status: 413, body: { errors: ['server.payload_too_large'] } };
      for (const request of held.kycWebhooks) expect(await answerOf(request)).toEqual(tooLarge);
      expect(await answerOf(held.kycChunked)).toEqual(tooLarge);
      for (const request of held.cardWebhooks)
        expect(await answerOf(request)).toEqual({
          status: 401,
          body: { errors: ['account.card.webhook_unauthorized'] },
        });
      expect(await answerOf(held.documents)).toEqual({
        status: 422,
        body: { errors: ['resource.documents.file_too_large'] },
      });
      expect(await answerOf(held.cardDocument)).toEqual({
        status: 422,
        body: { errors: ['account.card.document_too_large'] },
      });
    } finally {
      for (const request of all) request.close();
    }
    const stored = await t.db.pool.query('select count(*)::int as n from kyc_documents');
    expect(stored.rows[0].n).toBe(0);
  }, 60_000);

  it('refuses a declared length above the route limit with 413 before a byte of the body is sent', async () => {
    const signedIn = { cookie: trader.cookie, 'x-csrf-token': trader['x-csrf-token'] };
    const upload = multipartBody(
      { doc_type: 'passport' },
      { field: 'upload', name: 'huge.png', bytes: 11 * MiB },
    );
    const requests = [
      heldRequest(base, {
        method: 'POST',
        path: '/api/v2/barong/resource/documents',
        headers: { ...signedIn, 'content-type': upload.contentType },
        body: upload.body,
        withhold: upload.body.length,
      }),
      heldRequest(base, {
        method: 'POST',
        path: kycWebhook,
        headers: forgedDigest,
        body: Buffer.alloc(KYC_WEBHOOK_BODY_LIMIT + 1, 0x20),
        withhold: KYC_WEBHOOK_BODY_LIMIT + 1,
      }),
    ];
    try {
      for (const request of requests) {
        expect(await answerOf(request)).toEqual({
          status: 413,
          body: { errors: ['server.payload_too_large'] },
        });
      }
    } finally {
      for (const request of requests) request.close();
    }
  });

  it('refuses a big upload without a session before reading it', async () => {
    const upload = multipartBody(
      { doc_type: 'passport' },
      { field: 'upload', name: 'a.png', bytes: 3 * MiB },
    );
    const request = heldRequest(base, {
      method: 'POST',
      path: '/api/v2/barong/resource/documents',
      headers: { 'content-type': upload.contentType },
      body: upload.body,
      withhold: upload.body.length,
    });
    try {
      expect(await answerOf(request)).toEqual({ status: 401, body: { errors: ['authz.invalid_session'] } });
    } finally {
      request.close();
    }
  });
});

describe('the built-in KYC simulator', () => {
  it('refuses an unsigned post to its API, and a page upload over 2 MB, before their bodies end', async () => {
    await createSimApplicant(t.db.pool, {
      externalUserId: 'edge-sim-user',
      levelName: 'basic-kyc-level',
      info: {},
    });
    const token = await issueAccessToken(t.db.pool, 'edge-sim-user', 'basic-kyc-level', 600);
    const page = multipartBody(
      { access_token: token, id_doc_type: 'PASSPORT' },
      { field: 'front', name: 'big.png', bytes: 5 * MiB },
    );
    const document = multipartBody({ metadata: '{}' }, { field: 'content', name: 'a.png', bytes: 3 * MiB });
    const unsigned = heldRequest(base, {
      method: 'POST',
      path: '/kyc-sim/resources/applicants/x/info/idDoc',
      headers: { 'content-type': document.contentType },
      body: document.body,
      withhold: document.body.length,
    });
    const upload = heldRequest(base, {
      method: 'POST',
      path: '/kyc-sim/websdk/submit',
      headers: { 'content-type': page.contentType },
      body: page.body,
      withhold: 1,
    });
    try {
      const refused = await unsigned.answered;
      expect(refused.status).toBe(401);
      expect(JSON.parse(refused.body)).toMatchObject({
        description: 'Request signature mismatch (missing_headers)',
      });
      const answered = await upload.answered;
      expect(answered.status).toBe(422);
      expect(answered.body).toContain('Each file must be at most 2 MB.');
    } finally {
      unsigned.close();
      upload.close();
    }
  });
});

describe('form bodies', () => {
  it('are read up to 64 KiB: their parse is a loop over every pair, so a bigger one is refused with 413', async () => {
    const form = (bytes: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v2/barong/identity/inquiry',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `email=a%40example.com&pad=${'a'.repeat(bytes)}`,
        remoteAddress: nextIp(),
      });
    expect((await form(1000)).statusCode).toBe(422);
    const big = await form(64 * 1024);
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ errors: ['server.payload_too_large'] });
  });
});

describe('webhook rate limits', () => {
  it.each([
    ['KYC', kycWebhook, 300, forgedDigest],
    ['card issuer', cardWebhook, 600, json],
  ])('limits %s webhooks per client address, before any body is read', async (_name, url, max, headers) => {
    const ip = nextIp();
    const post = () => t.app.inject({ method: 'POST', url, headers, payload: '{}', remoteAddress: ip });
    for (let i = 0; i < max; i++) expect((await post()).statusCode).toBe(401);
    const limited = await post();
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ errors: ['server.rate_limited'] });
    // Another address is not affected.
    expect(
      (await t.app.inject({ method: 'POST', url, headers, payload: '{}', remoteAddress: nextIp() }))
        .statusCode,
    ).toBe(401);
  });
});
