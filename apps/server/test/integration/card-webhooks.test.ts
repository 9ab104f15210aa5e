import { describe, expect, it } from 'vitest';
import { webhookHeaders, webhookSignature } from '../../src/adapters/card-issuer/signing.ts';
import { cardSuite } from '../support/card.ts';

/** The issuer's webhooks: Basic credentials and signature before anything else, once per event token. */
const s = cardSuite();
const events = async () => (await s.db.query('select count(*)::int as n from card_webhook_events')).rows[0].n;
const holder = async (userId: number) =>
  (
    await s.db.query('select status, kyc_token, issuer_user_token from card_holders where user_id = $1', [
      userId,
    ])
  ).rows[0];
const approvalMails = async (email: string) =>
  (
    await s.db.query(
      `select count(*)::int as n from mail_outbox where recipient = $1 and subject like '%card application%'`,
      [email],
    )
  ).rows[0].n;

describe('webhook authentication', () => {
  it('refuses a wrong signature, wrong Basic credentials or a tampered body with 401, and changes nothing', async () => {
    const who = await s.member('hook-auth@card.test');
    await s.submitted(who);
    const h = await holder(who.id);
    const before = await events();
    const success = {
      kycs: [{ token: h.kyc_token, user_token: h.issuer_user_token, result: { status: 'success' } }],
    };
    const refused = async (res: Awaited<ReturnType<typeof s.webhook>>) => {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ errors: ['account.card.webhook_unauthorized'] });
    };
    await refused(await s.webhook(success, { secret: 'not-the-secret-at-all' }));
    await refused(await s.webhook(success, { password: 'wrong-password' }));
    await refused(await s.webhook(success, { username: 'someone-else' }));
    const tampered = JSON.stringify(success).replace('success', 'failure');
    await refused(await s.webhook(success, {}, tampered));
    const bare = await s.t.app.inject({
      method: 'POST',
      url: '/api/v2/peatio/public/card/webhook',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(success),
    });
    await refused(bare);
    // The right signature without the Basic credentials is not enough either.
    const c = s.t.deps.cardSimulator?.credentials;
    const signatureOnly = await s.t.app.inject({
      method: 'POST',
      url: '/api/v2/peatio/public/card/webhook',
      headers: {
        'content-type': 'application/json',
        'x-marqeta-signature': webhookSignature(c?.webhookSecret ?? '', JSON.stringify(success)),
      },
      payload: JSON.stringify(success),
    });
    await refused(signatureOnly);
    expect((await holder(who.id)).status).toBe('under_review');
    expect(await events()).toBe(before);
    expect(await approvalMails(who.email)).toBe(0);

    // Authentic but not JSON, or not Marqeta's shape: 400, nothing changed.
    const notJson = await s.t.app.inject({
      method: 'POST',
      url: '/api/v2/peatio/public/card/webhook',
      headers: webhookHeaders(
        {
          username: c?.webhookUsername ?? '',
          password: c?.webhookPassword ?? '',
          secret: c?.webhookSecret ?? '',
        },
        'not json',
      ),
      payload: 'not json',
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json()).toEqual({ errors: ['account.card.webhook_invalid_payload'] });
    expect((await s.webhook({ kycs: [{ token: 'k' }] })).statusCode).toBe(400);
    expect(await events()).toBe(before);

    const ok = await s.webhook(success);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ status: 'ok', applied: 1, duplicates: 0, ignored: 0 });
    expect((await holder(who.id)).status).toBe('activation_successful');
  });
});

describe('webhook idempotency', () => {
  it('the same event twice changes once; a decision about an older check is stale; an unknown user is ignored', async () => {
    const who = await s.member('hook-idem@card.test');
    await s.submitted(who);
    const h = await holder(who.id);
    const incomplete = {
      kycs: [
        {
          token: h.kyc_token,
          user_token: h.issuer_user_token,
          result: {
            status: 'failure',
            codes: [{ code: 'INCOMPLETE_INFORMATION', message: 'Selfie too dark.' }],
          },
        },
      ],
    };
    expect((await s.webhook(incomplete)).json()).toMatchObject({ applied: 1, duplicates: 0 });
    expect((await s.webhook(incomplete)).json()).toMatchObject({ applied: 0, duplicates: 1 });
    expect((await s.call(who, 'GET', '/account/card_audit')).json()).toEqual({
      status: 'incomplete_information',
      description: 'Selfie too dark.',
    });

    // Resubmitted: a new check; a success about the old one (another event token) is stale.
    expect((await s.call(who, 'POST', '/account/cardholder_document')).json().status).toBe('under_review');
    const stale = {
      kycs: [{ token: h.kyc_token, user_token: h.issuer_user_token, result: { status: 'success' }, id: 2 }],
    };
    const staleEvent = { kycs: [{ ...stale.kycs[0], token: `${h.kyc_token}-replayed` }] };
    expect((await s.webhook(staleEvent)).json()).toMatchObject({ applied: 0, ignored: 1 });
    expect((await holder(who.id)).status).toBe('under_review');

    const current = (await holder(who.id)).kyc_token;
    const success = {
      kycs: [{ token: current, user_token: h.issuer_user_token, result: { status: 'success' } }],
    };
    expect((await s.webhook(success)).json()).toMatchObject({ applied: 1 });
    expect((await s.webhook(success)).json()).toMatchObject({ applied: 0, duplicates: 1 });
    expect(await approvalMails(who.email)).toBe(1);

    const unknown = {
      kycs: [{ token: 'kyc_unknown', user_token: 'usr_nobody', result: { status: 'success' } }],
    };
    expect((await s.webhook(unknown)).json()).toMatchObject({ applied: 0, ignored: 1 });
    const outcomes = (
      await s.db.query(`select token, outcome from card_webhook_events where token in ($1, $2, $3)`, [
        current,
        'kyc_unknown',
        `${h.kyc_token}-replayed`,
      ])
    ).rows.map((r) => r.outcome);
    expect(outcomes.sort()).toEqual(['applied', 'stale', 'unknown']);
    // Other event kinds (Marqeta's pings, transactions) are acknowledged and ignored.
    expect((await s.webhook({ pings: [{ token: 'marqeta', payload: 'healthcheck' }] })).statusCode).toBe(200);
  });

  it('fulfilment moves a card forward once; state events, replays and unknown cards change nothing', async () => {
    const who = await s.approved('hook-ship@card.test');
    const ordered = await s.order(who);
    expect(ordered.json().fulfillment_status).toBe('ordered');
    const card = await s.row(who, ordered.json().card_number);
    const event = (token: string, type: string, fulfillment: string) => ({
      cardtransitions: [
        { token, card_token: card.issuer_token, type, state: 'UNACTIVATED', fulfillment_status: fulfillment },
      ],
    });
    const fulfilment = async () =>
      (await s.db.query('select fulfillment from cards where id = $1', [card.id])).rows[0].fulfillment;
    expect((await s.webhook(event('ct-1', 'fulfillment.shipped', 'SHIPPED'))).json()).toMatchObject({
      applied: 1,
    });
    expect(await fulfilment()).toBe('shipped');
    expect((await s.webhook(event('ct-1', 'fulfillment.shipped', 'SHIPPED'))).json()).toMatchObject({
      duplicates: 1,
    });
    expect((await s.webhook(event('ct-2', 'fulfillment.delivered', 'DELIVERED'))).json()).toMatchObject({
      applied: 1,
    });
    expect((await s.webhook(event('ct-3', 'fulfillment.ordered', 'ORDERED'))).json()).toMatchObject({
      ignored: 1,
    });
    expect((await s.webhook(event('ct-4', 'state.suspended', 'DELIVERED'))).json()).toMatchObject({
      ignored: 1,
    });
    expect(await fulfilment()).toBe('delivered');
    expect((await s.call(who, 'GET', '/account/cards')).json()[0].fulfillment_status).toBe('delivered');
    const unknown = {
      cardtransitions: [{ token: 'ct-5', card_token: 'card_nope', type: 'fulfillment.shipped' }],
    };
    expect((await s.webhook(unknown)).json()).toMatchObject({ ignored: 1 });
  });

  it('the simulator delivers its own fulfilment webhooks, signed, after the configured delay', async () => {
    const who = await s.approved('hook-sim@card.test');
    const ordered = await s.order(who);
    const card = await s.row(who, ordered.json().card_number);
    await s.settle();
    expect((await s.simCard(card.issuer_token)).fulfillment_status).toBe('ORDERED');
    await s.fulfilAll();
    expect((await s.simCard(card.issuer_token)).fulfillment_status).toBe('DELIVERED');
    expect((await s.call(who, 'GET', '/account/cards')).json()[0].fulfillment_status).toBe('delivered');
    const failed = await s.db.query('select 1 from cardsim_webhooks where last_error is not null');
    expect(failed.rowCount).toBe(0);
  });
});
