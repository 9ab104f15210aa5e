import { describe, expect, it } from 'vitest';
import type { RecordedResponse } from '../../src/http/response-recorder.ts';
import { cardSuite, JPEG, PASSPORT_APPLICATION, PNG, uniqueIdNo } from '../support/card.ts';
import { checkAnswers, documents, uncovered } from '../support/openapi-live.ts';
import { freshTotp, type Member } from '../support/wallet.ts';

// Issue 30: every operation of the card suite (Peatio's card routes, the issuer's webhook, the dev card terminal)
// answered for real, and every answer checked against the documents with ajv.
const answers: RecordedResponse[] = [];
const s = cardSuite(
  { DEV_TOOLS: 'true', BASEAPP_COMPAT: 'true' },
  { responseRecorder: (a) => answers.push(a) },
);
const ok = (res: { statusCode: number; body: string }, status = 200) =>
  expect(res.statusCode, res.body).toBe(status);
const q = (card: string) => `card_number=${encodeURIComponent(card)}`;
const devCard = (who: Member, path: string, payload: unknown) =>
  s.t.app.inject({
    method: 'POST',
    url: `/api/v2/dev/card/${path}`,
    headers: who.headers,
    payload: payload as object,
  });

describe('the card suite, answered live', () => {
  it('a holder applies, is reviewed, orders, pays, activates, tops up, spends and reads its statement', async () => {
    const who = await s.member('holder@carddocs.test');
    ok(await s.call(who, 'GET', '/account/cardholder/check_document?country=JP'));
    ok(
      await s.call(who, 'POST', '/account/cardholder', { ...PASSPORT_APPLICATION, id_no: uniqueIdNo() }),
      201,
    );
    ok(await s.upload(who, 'passport', JPEG), 201);
    ok(await s.upload(who, 'selfie', PNG, 'image/png'), 201);
    ok(await s.call(who, 'GET', '/account/cardholder/documents/passport'));
    ok(await s.call(who, 'POST', '/account/cardholder_document'), 201);
    ok(await s.call(who, 'GET', '/account/card_audit'));
    await s.review(who, 'approve');
    ok(await s.call(who, 'GET', '/account/cardholder_details'));
    await s.credit(who, 1000n * 1_000_000n);
    ok(await s.call(who, 'GET', '/account/card_fee'));

    const card = await s.activeCard(who);
    ok(await s.call(who, 'GET', '/account/cards'));
    ok(await s.call(who, 'GET', `/account/card_details?${q(card)}`));
    ok(await s.topup(who, card, '100'), 201);
    await s.settleTopups();
    ok(await s.call(who, 'GET', `/account/list/topup_transactions?${q(card)}`));
    ok(await s.call(who, 'GET', '/account/price/conversion?currency=usdt&amount=10'));
    ok(await s.call(who, 'GET', `/account/card_charges?${q(card)}`));
    ok(
      await s.call(who, 'POST', '/account/password/retrieval', {
        card_number: card,
        otp: await freshTotp(s.t, who),
      }),
    );
    const paid = await devCard(who, 'spend', { card_number: card, eur: '9.2', merchant: 'Cafe' });
    ok(paid, 201);
    ok(await devCard(who, 'refund', { trade_id: paid.json().trade_id, eur: '1' }), 201);
    await s.settle();
    const today = new Date().toISOString().slice(0, 10);
    ok(
      await s.call(who, 'POST', '/account/card_transaction', {
        card_number: card,
        transaction_type: 'Settled',
        currency: 'USDT',
        date_from: today,
        date_to: today,
      }),
    );
    ok(await s.call(who, 'POST', '/account/report/card_loss', { card_number: card }), 201);
    ok(await s.call(who, 'POST', '/account/remove/card_loss', { card_number: card }), 201);
    ok(await s.call(who, 'POST', '/account/replace_card', { card_number: card }), 201);
    // A signed webhook with nothing in it, as the issuer may send.
    ok(await s.webhook({}));
  });

  it('every answer matches the documents, and every card operation was answered with a success', async () => {
    const docs = await documents(s.t);
    expect(checkAnswers(docs, answers)).toEqual([]);
    const cardPaths = /(card|cardholder|topup|price\/conversion|password\/retrieval|upload_document)/;
    expect(uncovered(docs, answers, ['peatio', 'dev']).filter((m) => cardPaths.test(m))).toEqual([]);
  });
});
