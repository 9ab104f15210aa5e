import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cardSuite, uniqueIdNo } from '../support/card.ts';
import { kycHarness, PROFILE } from '../support/kyc.ts';
import { adminCall, asStaff, type Person, stepUp } from '../support/staff.ts';

/**
 * Identity documents and card holders' id numbers are sealed at rest: after a KYC upload (the exchange's own and
 * the provider simulator's verification page) and a card holder application, no table holds an image's bytes or a
 * document number in clear, while the owner and the console still see them.
 */
const s = cardSuite();
const kyc = kycHarness(() => ({ t: s.t, base: s.base }));

/** An image of `kind` by its signature, with random bytes after it, so none of it appears by chance. */
function image(kind: 'jpeg' | 'png', bytes = 64 * 1024): Buffer {
  const head =
    kind === 'jpeg'
      ? Buffer.from([0xff, 0xd8, 0xff, 0xe0])
      : Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
  return Buffer.concat([head, randomBytes(bytes)]);
}

/** Every row of every table of the app, as text (bytea as hex): what a reader of the database sees. */
async function everything(): Promise<string> {
  const tables = (
    await s.t.db.ownerPool.query<{ name: string }>(
      `select quote_ident(relname) as name from pg_class
        where relnamespace = 'public'::regnamespace and relkind in ('r', 'p')`,
    )
  ).rows;
  const parts: string[] = [];
  for (const { name } of tables) {
    const rows = await s.t.db.ownerPool.query<{ row: string }>(`select t::text as row from ${name} t`);
    for (const r of rows.rows) parts.push(r.row);
  }
  return parts.join('\n').toLowerCase();
}

/** Pieces of an image that would show in the text of a row holding it: hex of a few stretches of its bytes. */
const pieces = (content: Buffer) =>
  [content.length / 4, content.length / 2, content.length - 40].map((at) =>
    content.subarray(at, at + 24).toString('hex'),
  );

let officer: Person | undefined;
async function compliance() {
  if (!officer) {
    officer = await asStaff(s.t, (await s.member('compliance@sealed.test')).id, 'compliance');
    await stepUp(s.t, officer);
  }
  return officer;
}
const console_ = async (url: string) => adminCall(s.t, 'GET', url, (await compliance()).headers);

describe('identity documents and id numbers at rest', () => {
  it('keeps no image bytes or document number in clear, and the owner and the console still see them', async () => {
    const kycUpload = image('jpeg');
    const pageFront = image('jpeg');
    const pageSelfie = image('png');
    const kycNumber = `KYC${uniqueIdNo('S')}`;

    // KYC: the documents API (filed with the provider too) and the provider's verification page.
    const applicant = await kyc.signedIn('applicant@sealed.test');
    expect((await kyc.call('POST', '/resource/profiles', applicant.session, PROFILE)).statusCode).toBe(201);
    const token = await kyc.widgetToken(applicant.session);
    const uploaded = await kyc.upload(applicant.session, [
      { name: 'doc_type', value: 'passport' },
      { name: 'doc_number', value: kycNumber },
      { name: 'doc_expire', value: '2031-01-01' },
      { name: 'upload[]', fileName: 'passport.jpg', contentType: 'image/jpeg', value: kycUpload },
    ]);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    expect((await kyc.submitOnPage(token, { front: pageFront, selfie: pageSelfie })).status).toBeLessThan(
      400,
    );

    // A card holder: the application's number, the passport page and the selfie, sent to the issuer.
    const holderFront = image('jpeg', 256 * 1024);
    const holderSelfie = image('png');
    const idNo = uniqueIdNo('Z');
    const who = await s.member('holder@sealed.test');
    const applied = await s.call(who, 'POST', '/account/cardholder', {
      id_type: 'passport',
      country: 'JP',
      id_no: idNo,
    });
    expect(applied.statusCode, applied.body).toBe(201);
    expect((await s.upload(who, 'passport', holderFront)).statusCode).toBe(201);
    expect((await s.upload(who, 'selfie', holderSelfie, 'image/png')).statusCode).toBe(201);
    const submitted = await s.call(who, 'POST', '/account/cardholder_document');
    expect(submitted.statusCode, submitted.body).toBe(201);

    const stored = await everything();
    for (const [what, content] of Object.entries({
      kycUpload,
      pageFront,
      pageSelfie,
      holderFront,
      holderSelfie,
    }))
      for (const piece of pieces(content)) expect(stored.includes(piece), `${what} in clear`).toBe(false);
    for (const number of [kycNumber, idNo]) expect(stored.includes(number.toLowerCase()), number).toBe(false);

    // The owner sees their own.
    const documents = await kyc.call('GET', '/resource/documents', applicant.session);
    expect(documents.json()).toEqual([
      expect.objectContaining({ doc_type: 'passport', doc_number: kycNumber }),
    ]);
    expect((await s.call(who, 'GET', '/account/cardholder_details')).json()).toMatchObject({ id: idNo });
    const own = await s.call(who, 'GET', '/account/cardholder/documents/passport');
    expect([own.statusCode, own.rawPayload.equals(holderFront)]).toEqual([200, true]);

    // The console opens the applicant's and the holder's documents.
    const queue = (await console_('/kyc')).json() as { uid: string; documents: { id: number }[] }[];
    const entry = queue.find((q) => q.uid === applicant.uid);
    const shown = [];
    for (const d of entry?.documents ?? [])
      shown.push((await console_(`/kyc/${applicant.uid}/documents/${d.id}`)).rawPayload);
    expect(shown.map((b) => b.toString('hex'))).toEqual(
      [kycUpload, pageFront, pageSelfie].map((b) => b.toString('hex')),
    );
    const holders = (await console_('/card_holders')).json() as {
      uid: string;
      documents: { id: number }[];
    }[];
    const uid = (await s.db.query('select uid from users where id = $1', [who.id])).rows[0].uid as string;
    const holderDocs = holders.find((h) => h.uid === uid)?.documents ?? [];
    const images = [];
    for (const d of holderDocs)
      images.push((await console_(`/card_holders/${uid}/documents/${d.id}`)).rawPayload);
    expect(images.map((b) => b.toString('hex'))).toEqual(
      [holderFront, holderSelfie].map((b) => b.toString('hex')),
    );
  });

  it('seals what an earlier version stored in clear at the next start, and still shows it', async () => {
    const who = await s.member('earlier@sealed.test');
    const idNo = uniqueIdNo('E');
    const applied = await s.call(who, 'POST', '/account/cardholder', {
      id_type: 'passport',
      country: 'JP',
      id_no: idNo,
    });
    expect(applied.statusCode, applied.body).toBe(201);
    const front = image('jpeg');
    expect((await s.upload(who, 'passport', front)).statusCode).toBe(201);
    // As an earlier version wrote them: the number and the image in their plain columns.
    await s.db.query(
      `update card_holders set id_no = $2, id_no_sealed = null, id_no_hash = null where user_id = $1`,
      [who.id, idNo],
    );
    await s.db.query(
      `update card_holder_documents set content = $2, content_sealed = null
        where holder_id = (select id from card_holders where user_id = $1)`,
      [who.id, front],
    );
    const kycImage = image('png');
    const applicant = await kyc.signedIn('earlier-kyc@sealed.test');
    await s.db.query(
      `insert into kyc_documents (user_id, doc_type, doc_number, file_name, mime_type, size_bytes, content)
       values ($1, 'passport', 'OLDNUMBER77', 'old.png', 'image/png', $2, $3)`,
      [applicant.id, kycImage.length, kycImage],
    );
    const before = await everything();
    expect(before.includes(pieces(front)[0] as string)).toBe(true);
    expect(before.includes(idNo.toLowerCase())).toBe(true);

    await s.restart();

    const after = await everything();
    for (const piece of [...pieces(front), ...pieces(kycImage)]) expect(after.includes(piece)).toBe(false);
    for (const number of [idNo, 'OLDNUMBER77'])
      expect(after.includes(number.toLowerCase()), number).toBe(false);
    expect((await s.call(who, 'GET', '/account/cardholder_details')).json()).toMatchObject({ id: idNo });
    const own = await s.call(who, 'GET', '/account/cardholder/documents/passport');
    expect(own.rawPayload.equals(front)).toBe(true);
    const documents = await kyc.call('GET', '/resource/documents', applicant.session);
    expect(documents.json()).toEqual([expect.objectContaining({ doc_number: 'OLDNUMBER77' })]);
    // The number still finds its holder: another user cannot apply with it.
    const other = await s.member('earlier-2@sealed.test');
    const taken = await s.call(other, 'POST', '/account/cardholder', {
      id_type: 'passport',
      country: 'JP',
      id_no: idNo,
    });
    expect([taken.statusCode, taken.json()]).toEqual([
      422,
      { errors: ['account.member.idno_already_exist'] },
    ]);
  });
});
