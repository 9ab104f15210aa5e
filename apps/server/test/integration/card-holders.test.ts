import { loadCardSimulatorCredentials, unseal } from '@exchange/provider-sims/card-issuer';
import { CARD_IMAGE_MAX_BYTES } from '@exchange/shared';
import { describe, expect, it } from 'vitest';
import { cardReview, cardStatus } from '../../src/modules/card/review-commands.ts';
import { cardDesk, cardSuite, JPEG, PASSPORT_APPLICATION, PNG, uniqueIdNo } from '../support/card.ts';
import { PDF } from '../support/kyc.ts';

/** The card holder: application rules, document images, review by the simulator's operator, the wizard state. */
const s = cardSuite();
const holders = async (userId: number) =>
  (await s.db.query('select count(*)::int as n from card_holders where user_id = $1', [userId])).rows[0].n;
const documents = async (userId: number) =>
  (
    await s.db.query(
      `select d.doc_type, d.size_bytes from card_holder_documents d join card_holders h on h.id = d.holder_id
       where h.user_id = $1 order by d.doc_type`,
      [userId],
    )
  ).rows;

describe('applying', () => {
  it('tells which documents a country may use', async () => {
    const who = await s.member('check@card.test');
    const check = async (q: string) => s.call(who, 'GET', `/account/cardholder/check_document${q}`);
    expect((await check('?country=at')).json()).toEqual({
      country: 'AT',
      allowed: true,
      id_types: ['id_card', 'passport'],
    });
    expect((await check('?country=JP')).json()).toEqual({
      country: 'JP',
      allowed: true,
      id_types: ['passport'],
    });
    expect((await check('?country=RU')).json()).toEqual({ country: 'RU', allowed: false, id_types: [] });
    for (const q of ['', '?country=X', '?country=123']) {
      const res = await check(q);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual(['account.card.invalid_country']);
    }
  });

  it('refuses below level 3, a blocked country, an id type the country does not allow, a bad number: nothing is created', async () => {
    const low = await s.member('low@card.test', 2);
    const res = await s.call(low, 'POST', '/account/cardholder', {
      ...PASSPORT_APPLICATION,
      id_no: 'AB123456',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().errors).toEqual(['account.card.level_required']);

    const who = await s.member('rules@card.test');
    const refused = async (body: Record<string, unknown>, code: string) => {
      const r = await s.call(who, 'POST', '/account/cardholder', body);
      expect(r.statusCode, JSON.stringify(body)).toBe(422);
      expect(r.json().errors).toEqual([code]);
    };
    await refused(
      { id_type: 'passport', id_no: 'AB123456', country: 'RU' },
      'account.card.country_not_allowed',
    );
    await refused(
      { id_type: 'passport', id_no: 'AB123456', country: 'ir' },
      'account.card.country_not_allowed',
    );
    await refused({ id_type: 'id_card', id_no: 'AB123456', country: 'JP' }, 'account.card.invalid_id_type');
    await refused({ id_type: 'driver', id_no: 'AB123456', country: 'AT' }, 'account.card.invalid_id_type');
    await refused({ id_type: 'passport', id_no: '', country: 'JP' }, 'account.card.missing_id_number');
    await refused({ id_type: 'passport', id_no: 'AB12', country: 'JP' }, 'account.card.id_number_too_short');
    await refused(
      { id_type: 'passport', id_no: 'AB12-3456', country: 'JP' },
      'account.card.invalid_id_number',
    );
    await refused(
      { id_type: 'passport', id_no: 'A'.repeat(13), country: 'JP' },
      'account.card.id_number_too_long',
    );
    await refused(
      { id_type: 'id_card', id_no: 'A'.repeat(33), country: 'AT' },
      'account.card.id_number_too_long',
    );
    expect(await holders(low.id)).toBe(0);
    expect(await holders(who.id)).toBe(0);
    expect((await s.db.query('select count(*)::int as n from cardsim_users')).rows[0].n).toBe(0);
  });

  it('creates one holder per user with the profile names and an issuer user; the number is unique across users', async () => {
    const who = await s.member('apply@card.test');
    const idNo = uniqueIdNo('p');
    const created = await s.call(who, 'POST', '/account/cardholder', {
      ...PASSPORT_APPLICATION,
      id_no: idNo,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      first_name: 'Carla',
      last_name: 'Holder',
      id: idNo.toUpperCase(),
      country: 'JP',
      idno_type: 2,
      status: 'pending',
      audit_status: 'pending',
      document_status: 'missing',
      selfie_status: 'missing',
      bindSuccess: false,
    });
    const token = (
      await s.db.query('select issuer_user_token from card_holders where user_id = $1', [who.id])
    ).rows[0].issuer_user_token;
    const issued = (
      await s.db.query(
        'select first_name, identifications, identifications_sealed from cardsim_users where token = $1',
        [token],
      )
    ).rows[0];
    // The issuer keeps the number too, sealed with its own key.
    const { dataKey } = await loadCardSimulatorCredentials(s.db);
    expect({
      ...issued,
      identifications_sealed: JSON.parse(unseal(dataKey, issued.identifications_sealed)),
    }).toEqual({
      first_name: 'Carla',
      identifications: [],
      identifications_sealed: [{ type: 'PASSPORT', value: idNo.toUpperCase() }],
    });

    const again = await s.call(who, 'POST', '/account/cardholder', {
      ...PASSPORT_APPLICATION,
      id_no: uniqueIdNo(),
    });
    expect(again.json().errors).toEqual(['account.member.cardholder_already_exist']);
    const other = await s.member('apply2@card.test');
    const taken = await s.call(other, 'POST', '/account/cardholder', {
      id_type: 'id_card',
      id_no: idNo.toLowerCase(),
      country: 'AT',
    });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors).toEqual(['account.member.idno_already_exist']);
    expect(await holders(other.id)).toBe(0);
    expect((await s.call(who, 'GET', '/account/card_audit')).json()).toEqual({
      status: 'pending',
      description: null,
    });
  });

  it('before applying, the holder calls answer 404 holder_not_found', async () => {
    const who = await s.member('nobody@card.test');
    for (const [method, url] of [
      ['GET', '/account/cardholder_details'],
      ['GET', '/account/card_audit'],
      ['POST', '/account/cardholder_document'],
    ] as const) {
      const res = await s.call(who, method, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().errors).toEqual(['account.card.holder_not_found']);
    }
    const up = await s.upload(who, 'passport', JPEG);
    expect(up.statusCode).toBe(404);
  });
});

describe('document images', () => {
  it('takes JPEG or PNG by content under 10 MB, of a type the id type needs; replaces; shows only to the owner', async () => {
    const who = await s.member('images@card.test');
    await s.call(who, 'POST', '/account/cardholder', { ...PASSPORT_APPLICATION, id_no: uniqueIdNo() });
    const refused = async (res: Awaited<ReturnType<typeof s.upload>>, code: string) => {
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual([code]);
    };
    await refused(await s.upload(who, 'passport', PDF, 'image/jpeg'), 'account.card.invalid_document_format');
    await refused(
      await s.upload(who, 'passport', Buffer.from('GIF89a-not-an-image'), 'image/png'),
      'account.card.invalid_document_format',
    );
    await refused(await s.upload(who, 'id_card_front', JPEG), 'account.card.invalid_document_type');
    await refused(await s.upload(who, 'utility_bill', JPEG), 'account.card.invalid_document_type');
    await refused(await s.upload(who, 'passport', null), 'account.card.missing_document');
    await refused(await s.upload(who, 'selfie', null), 'account.card.missing_selfie');
    const tenMb = Buffer.concat([JPEG, Buffer.alloc(CARD_IMAGE_MAX_BYTES - JPEG.length)]);
    await refused(await s.upload(who, 'passport', tenMb), 'account.card.document_too_large');
    expect(await documents(who.id)).toEqual([]);

    const first = await s.upload(who, 'passport', JPEG);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      passport: true,
      document_status: 'uploaded',
      selfie_status: 'missing',
    });
    const bigger = Buffer.concat([PNG, Buffer.alloc(1000, 3)]);
    expect((await s.upload(who, 'passport', bigger, 'image/png')).statusCode).toBe(201);
    expect(await documents(who.id)).toEqual([{ doc_type: 'passport', size_bytes: bigger.length }]);

    const own = await s.call(who, 'GET', '/account/cardholder/documents/passport');
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('image/png');
    expect(own.headers['cache-control']).toBe('private, no-store');
    expect(own.rawPayload.equals(bigger)).toBe(true);
    expect((await s.call(who, 'GET', '/account/cardholder/documents/selfie')).statusCode).toBe(404);
    expect((await s.call(who, 'GET', '/account/cardholder/documents/other')).statusCode).toBe(422);
    const stranger = await s.member('stranger@card.test');
    const theirs = await s.call(stranger, 'GET', '/account/cardholder/documents/passport');
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().errors).toEqual(['record.not_found']);
  });
});

describe('review', () => {
  it('submits only with the documents and the selfie; locked while under review', async () => {
    const who = await s.member('submit@card.test');
    await s.call(who, 'POST', '/account/cardholder', {
      id_type: 'id_card',
      id_no: uniqueIdNo('I'),
      country: 'AT',
    });
    const submit = () => s.call(who, 'POST', '/account/cardholder_document');
    expect((await submit()).json().errors).toEqual(['account.card.missing_document']);
    await s.upload(who, 'id_card_front', JPEG);
    expect((await submit()).json().errors).toEqual(['account.card.missing_document']);
    await s.upload(who, 'id_card_back', JPEG);
    expect((await submit()).json().errors).toEqual(['account.card.missing_selfie']);
    expect((await s.call(who, 'GET', '/account/card_audit')).json().status).toBe('pending');
    await s.upload(who, 'selfie', PNG, 'image/png');
    const sent = await submit();
    expect(sent.statusCode).toBe(201);
    expect(sent.json()).toMatchObject({
      status: 'under_review',
      idno_type: 1,
      document_status: 'uploaded',
      selfie_status: 'uploaded',
      id_card_front: true,
      id_card_back: true,
    });
    const sim = (
      await s.db.query(
        `select d.doc_type from cardsim_documents d join card_holders h on h.issuer_user_token = d.user_token
         where h.user_id = $1 order by d.doc_type`,
        [who.id],
      )
    ).rows.map((r) => r.doc_type);
    expect(sim).toEqual(['id_card_back', 'id_card_front', 'selfie']);
    expect((await s.upload(who, 'selfie', PNG, 'image/png')).json().errors).toEqual([
      'account.card.holder_under_review',
    ]);
    expect((await submit()).json().errors).toEqual(['account.card.holder_under_review']);
  });

  it('the operator asks for more: incomplete with the reason; the holder uploads again and resubmits; approval emails', async () => {
    const who = await s.member('review@card.test');
    await s.submitted(who);
    await s.review(who, 'incomplete', 'The passport photo is blurred.');
    const details = (await s.call(who, 'GET', '/account/cardholder_details')).json();
    expect(details).toMatchObject({
      status: 'incomplete_information',
      isIncomplete: true,
      description: 'The passport photo is blurred.',
      bindSuccess: false,
    });
    expect((await s.call(who, 'GET', '/account/card_audit')).json()).toEqual({
      status: 'incomplete_information',
      description: 'The passport photo is blurred.',
    });
    expect((await s.upload(who, 'passport', PNG, 'image/png')).statusCode).toBe(201);
    expect((await s.call(who, 'POST', '/account/cardholder_document')).json().status).toBe('under_review');
    const mailsBefore = (
      await s.db.query(`select count(*)::int as n from mail_outbox where recipient = $1`, [who.email])
    ).rows[0].n;
    await s.review(who, 'approve');
    expect((await s.call(who, 'GET', '/account/cardholder_details')).json()).toMatchObject({
      status: 'activation_successful',
      bindSuccess: true,
      isIncomplete: false,
      description: null,
    });
    const mail = (
      await s.db.query(`select subject from mail_outbox where recipient = $1 order by id desc`, [who.email])
    ).rows;
    expect(mail.length).toBe(mailsBefore + 1);
    expect(mail[0].subject).toBe('Your card application is approved');
    expect((await s.upload(who, 'selfie', PNG, 'image/png')).json().errors).toEqual([
      'account.card.holder_under_review',
    ]);
    expect((await cardReview(s.db, cardDesk(s.t), 'approve', who.email)).ok).toBe(false);
  });

  it('a rejection shows with its reason; the CLI refuses unknown users and decisions; status shows no image data', async () => {
    const who = await s.member('reject@card.test');
    await s.submitted(who);
    await s.review(who, 'reject');
    expect((await s.call(who, 'GET', '/account/card_audit')).json()).toEqual({
      status: 'rejection',
      description: 'The application was declined.',
    });
    expect((await cardReview(s.db, cardDesk(s.t), 'approve', 'nobody@card.test')).ok).toBe(false);
    expect((await cardReview(s.db, cardDesk(s.t), 'maybe', who.email)).ok).toBe(false);
    const status = await cardStatus(s.db, cardDesk(s.t), who.email);
    expect(status.ok).toBe(true);
    const shown = JSON.parse(status.message);
    expect(shown.holder).toMatchObject({ status: 'rejection', id_type: 'passport' });
    expect(
      shown.documents.map((d: { doc_type: string; size_bytes: number }) => [d.doc_type, d.size_bytes]),
    ).toEqual([
      ['passport', JPEG.length],
      ['selfie', PNG.length],
    ]);
    expect(status.message).not.toContain(JPEG.toString('base64').slice(0, 12));
    expect(shown.cards).toEqual([]);
  });
});
